import { BurnrateError } from '../domain/errors.js';
import { baselineSchema } from './schema.js';
import type { Dialect } from './session.js';

/**
 * One schema change: its SQL written once (`sql`, spelled by the dialect where the two differ), or
 * per database where they must differ. A database given '' has nothing to do (the change concerns
 * only the other one).
 */
export interface Migration {
  key: string;
  sql?: string | ((d: Dialect) => string);
  sqlite?: string;
  postgres?: string;
}

/**
 * The one list of schema changes, applied in order and recorded by key in burnrate_migrations on
 * both databases. Never edit a released one: append a new one, written once where the SQL is the same.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    // The schema both databases had before the list was one (schema.ts). A SQLite file from before
    // it is brought to it by sqlite/sqlite-upgrade.ts.
    key: '0001-baseline',
    sql: baselineSchema,
  },
  {
    // Which replica runs the schedule, until when: a lease on the database's clock, renewed every
    // few seconds by its holder and taken over by another replica once it has run out. An embedded
    // SQLite store has one process, which always leads.
    key: '0002-scheduler-leader',
    sqlite: '',
    postgres: `CREATE TABLE scheduler_leader (name text PRIMARY KEY, owner text NOT NULL, expires_at timestamptz NOT NULL);`,
  },
  {
    // One table for the findings of every check, each row its check's family (budget, gpu, sweep)
    // and its subject (a budget's period, an idle GPU's instance, a sweep); the three tables of the
    // same shape it replaces are moved into it, every row kept.
    key: '0003-one-findings-table',
    sql: oneFindingsTable,
  },
  {
    // What an assistant proposed through the MCP server (stop or keep an idle instance, move one to
    // spot), so that its outcome can be asked for by the proposal's id; the outcome itself is the
    // audit rows of the clicks on its subject.
    key: '0004-action-proposals',
    sql: `
    CREATE TABLE action_proposals (
      id text PRIMARY KEY, action text NOT NULL CHECK (action IN ('stop', 'keep', 'spot')), subject text NOT NULL,
      instance_id text NOT NULL, team text, by_user text NOT NULL, reason text, at text NOT NULL
    );
    CREATE INDEX action_proposals_subject ON action_proposals (subject);
    -- A proposal's outcome is read from the audit rows of its subject.
    CREATE INDEX audit_log_subject ON audit_log (subject, at);
    `,
  },
  {
    // What the bill itself charged each Kubernetes pod on a node a day (AWS split cost allocation
    // data), per import source, billing period and export part ('' for none) so that a re-import
    // replaces its own rows only.
    key: '0005-kube-split-costs',
    sql: `
    CREATE TABLE kube_split_costs (
      source text NOT NULL, billing_period text NOT NULL, part text NOT NULL, day text NOT NULL, node_instance_id text NOT NULL,
      cluster text NOT NULL, namespace text NOT NULL, pod text NOT NULL, currency text NOT NULL,
      split_cost double precision NOT NULL,
      PRIMARY KEY (source, billing_period, part, day, node_instance_id, cluster, namespace, pod, currency)
    );
    CREATE INDEX kube_split_costs_day ON kube_split_costs (day);
    `,
  },
  {
    // MCP tokens issued by `burnrate mcp token create`: only each token's SHA-256 is kept, with the
    // user it acts as, until when, and when it was revoked. And one proposal per subject and action:
    // two identical proposals at the same moment (an assistant retrying) post once. Should an older
    // database hold such a pair already, the later one is dropped (the earlier one is what was posted first).
    key: '0006-mcp-tokens',
    sql: `
    CREATE TABLE mcp_tokens (
      id text PRIMARY KEY, user_id text NOT NULL, name text NOT NULL, token_hash text NOT NULL UNIQUE,
      created_at text NOT NULL, expires_at text, revoked_at text
    );
    DELETE FROM action_proposals WHERE EXISTS (
      SELECT 1 FROM action_proposals earlier WHERE earlier.subject = action_proposals.subject AND earlier.action = action_proposals.action
        AND (earlier.at < action_proposals.at OR (earlier.at = action_proposals.at AND earlier.id < action_proposals.id))
    );
    CREATE UNIQUE INDEX action_proposals_once ON action_proposals (subject, action);
    `,
  },
  {
    // burnrate.yml's exchange rates the moves of Kubernetes node cost to teams were made with (one
    // row): a store opened with other rates makes anew the moves of node-days billed in several
    // currencies (kube-attribution-rates.ts).
    key: '0007-kube-attribution-rates',
    sql: `CREATE TABLE kube_attribution_rates (id integer PRIMARY KEY CHECK (id = 1), rates text NOT NULL);`,
  },
];

/**
 * The one findings table, the same on both but for how a sweep finding's kind is read from its JSON
 * body. A family is any check's name (no list to extend): a new check's findings need no migration.
 */
function oneFindingsTable(d: Dialect): string {
  return `
  CREATE TABLE check_findings (
    family text NOT NULL, id text NOT NULL, kind text NOT NULL, team text, subject text NOT NULL,
    state text NOT NULL CHECK (state IN ('new', 'open', 'resolved')), body text NOT NULL,
    first_seen text NOT NULL, last_seen text NOT NULL, resolved_at text,
    PRIMARY KEY (family, id)
  );
  CREATE INDEX check_findings_open ON check_findings (family, state, team);
  CREATE INDEX check_findings_subject ON check_findings (family, subject);
  INSERT INTO check_findings (family, id, kind, team, subject, state, body, first_seen, last_seen, resolved_at)
    SELECT 'budget', id, kind, team, period, state, body, first_seen, last_seen, resolved_at FROM findings;
  INSERT INTO check_findings (family, id, kind, team, subject, state, body, first_seen, last_seen, resolved_at)
    SELECT 'gpu', id, kind, team, instance_id, state, body, first_seen, last_seen, resolved_at FROM gpu_findings;
  INSERT INTO check_findings (family, id, kind, team, subject, state, body, first_seen, last_seen, resolved_at)
    SELECT 'sweep', id, ${d.jsonText('body', 'kind')}, team, sweep, state, body, first_seen, last_seen, resolved_at FROM sweep_findings;
  DROP TABLE findings;
  DROP TABLE gpu_findings;
  DROP TABLE sweep_findings;
  `;
}

/** The table both databases record applied migrations in. */
export const CREATE_MIGRATIONS_TABLE = 'CREATE TABLE IF NOT EXISTS burnrate_migrations (key text PRIMARY KEY, applied_at text NOT NULL)';

/** A migration's SQL on a database ('' when it has nothing to do there). */
export function sqlOf(migration: Migration, d: Dialect): string {
  const sql = migration[d.name] ?? migration.sql ?? '';
  return typeof sql === 'string' ? sql : sql(d);
}

/** Refuses a database migrated by a newer burnrate: one that has applied migrations this list does not know. */
export function refuseUnknown(applied: Iterable<string>, migrations: readonly Migration[] = MIGRATIONS): void {
  const known = new Set(migrations.map((m) => m.key));
  const unknown = [...applied].filter((key) => !known.has(key));
  if (unknown.length > 0) throw new UnknownMigrationError(unknown);
}

/** Refuses a database a newer burnrate migrated; `instead` says what to point burnrate at ("BURNRATE_DB at another file"). */
export const databaseTooNew = (detail: string, instead: string): BurnrateError =>
  new BurnrateError('burnrate_db_too_new', detail, `Upgrade burnrate, or point ${instead}.`, 1);

/** The database was migrated by a newer burnrate: this one does not know its schema. */
export class UnknownMigrationError extends Error {
  constructor(readonly keys: string[]) {
    super(`database has migrations this burnrate does not know: ${keys.join(', ')}`);
  }
}
