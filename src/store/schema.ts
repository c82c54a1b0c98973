import type { Dialect } from './session.js';

/**
 * The schema of the baseline migration (migrations.ts), written once for both databases: what a new
 * database starts from. Amounts are double precision (SQLite reads it as REAL), times ISO-8601 text
 * (they sort as they compare). What the two spell differently comes from the dialect (`ddl`). An
 * older SQLite file gains the tables and columns it lacks from here (sqlite/sqlite-upgrade.ts).
 * Never edit it: append a migration to migrations.ts.
 */
/** spend_daily's amounts (double precision; its other columns are text): an import binds them as numbers, a Kubernetes move scales them. */
export const SPEND_AMOUNTS: readonly string[] = [
  'billed',
  'effective',
  'list_cost',
  'contracted_cost',
  'pricing_currency_effective_cost',
  'usage_hours',
];

/** The spend_daily columns an import fills, in the order it writes them (import-batches.ts). */
export const SPEND_COLUMN_NAMES: readonly string[] = `source billing_period billing_account day team owner_tag provider sub_account service
  service_category resource_id charge_category pricing_category currency billed effective experiment run_id sweep export_id part
  content_hash charge_frequency charge_class commitment_discount_id commitment_discount_type commitment_discount_category
  commitment_discount_status list_cost contracted_cost publisher invoice_issuer resource_name region cost_kind pricing_currency
  pricing_currency_effective_cost host_provider extensions usage_hours commitment_end`.split(/\s+/);

export function baselineSchema(d: Dialect): string {
  const { identity, insertionOrderColumn, withoutRowid } = d.ddl;
  return `
    CREATE TABLE spend_daily (
      source text NOT NULL,
      billing_period text NOT NULL, -- YYYY-MM of BillingPeriodStart: the unit a re-import replaces
      billing_account text NOT NULL DEFAULT '',
      day text NOT NULL, -- YYYY-MM-DD (UTC)
      team text NOT NULL, owner_tag text, provider text NOT NULL, sub_account text, service text NOT NULL,
      service_category text, resource_id text, charge_category text NOT NULL, pricing_category text, currency text NOT NULL,
      billed double precision NOT NULL, effective double precision NOT NULL,
      -- the values of the configured experiment, run and sweep tag keys (unit costs)
      experiment text, run_id text, sweep text,
      -- the export file a row came from and its content hash: importing a part again replaces that part only
      export_id text, part text, content_hash text,
      -- the FOCUS columns that tell charges apart
      charge_frequency text, charge_class text, commitment_discount_id text, commitment_discount_type text,
      commitment_discount_category text, commitment_discount_status text, list_cost double precision,
      contracted_cost double precision, publisher text, invoice_issuer text, resource_name text, region text,
      -- what a forecast makes of a charge (cost-kind.ts)
      cost_kind text NOT NULL DEFAULT 'usage' CHECK (cost_kind IN ('usage', 'recurring', 'one-time')),
      -- with the effective cost in the pricing currency: the exchange rate the bill used
      pricing_currency text, pricing_currency_effective_cost double precision, host_provider text,
      extensions text, -- the provider columns (x_...) kept as dimensions, as a JSON object
      usage_hours double precision, -- where the bill counts use in time
      commitment_end text
    );
    -- Covers the budget checks' daily totals per team, so they never read the table itself.
    CREATE INDEX spend_daily_day_team ON spend_daily (day, team, billed, effective);
    CREATE INDEX spend_daily_scope ON spend_daily (source, billing_period, billing_account);
    -- Few rows have one: the bills' exchange rates are read from these.
    CREATE INDEX spend_daily_pricing_currency ON spend_daily (pricing_currency) WHERE pricing_currency IS NOT NULL;

    -- Each team's spend per day, summed from spend_daily by every import over the days it touched.
    CREATE TABLE spend_team_days (
      day text NOT NULL, team text NOT NULL, currency text NOT NULL, kind text NOT NULL, billed double precision NOT NULL,
      effective double precision NOT NULL,
      PRIMARY KEY (day, team, currency, kind)
    )${withoutRowid};

    CREATE TABLE source_freshness (
      source text PRIMARY KEY, data_through text, refreshed_at text NOT NULL
    );
    -- The last failed refresh of a source, until one succeeds: budget checks say its data is stale.
    CREATE TABLE source_failures (
      source text PRIMARY KEY, failed_at text NOT NULL, error text NOT NULL
    );
    -- Budgets of the clouds' budget services, as last listed; each listing replaces its source's rows.
    CREATE TABLE cloud_budgets (
      source text NOT NULL, id text NOT NULL, origin text NOT NULL, team text, body text NOT NULL,
      PRIMARY KEY (source, id)
    );
    CREATE INDEX cloud_budgets_team ON cloud_budgets (team);

    -- Findings of the budget, idle-GPU and sweep checks (migration 0003 moves them into one table).
    CREATE TABLE findings (
      id text PRIMARY KEY, kind text NOT NULL, team text NOT NULL, period text NOT NULL, threshold double precision NOT NULL,
      state text NOT NULL CHECK (state IN ('new', 'open', 'resolved')), body text NOT NULL, first_seen text NOT NULL,
      last_seen text NOT NULL, resolved_at text
    );
    CREATE INDEX findings_period ON findings (period);
    CREATE TABLE gpu_findings (
      id text PRIMARY KEY, kind text NOT NULL, team text, instance_id text NOT NULL, body text NOT NULL,
      state text NOT NULL CHECK (state IN ('open', 'resolved')), first_seen text NOT NULL, last_seen text NOT NULL,
      resolved_at text
    );
    CREATE INDEX gpu_findings_open ON gpu_findings (state, team);
    CREATE TABLE sweep_findings (
      id text PRIMARY KEY, team text NOT NULL, sweep text NOT NULL, body text NOT NULL,
      state text NOT NULL CHECK (state IN ('open', 'resolved')), first_seen text NOT NULL, last_seen text NOT NULL,
      resolved_at text
    );
    CREATE INDEX sweep_findings_open ON sweep_findings (state, team);

    -- Every mutation from chat: who, what, when, and how it ended.
    CREATE TABLE audit_log (
      id ${identity}, at text NOT NULL, platform text NOT NULL, user_id text NOT NULL, action text NOT NULL,
      subject text NOT NULL, result text NOT NULL CHECK (result IN ('ok', 'refused', 'failed', 'dry-run', 'duplicate')),
      detail text
    );
    CREATE INDEX audit_log_at ON audit_log (at);

    -- A snoozed alert group posts nothing until the snooze ends; duration (24h, 7d, period...) makes a replayed click a duplicate.
    CREATE TABLE snoozes (
      group_key text PRIMARY KEY, until text NOT NULL, by_user text NOT NULL, at text NOT NULL, duration text
    );
    CREATE TABLE acknowledgements (
      finding_id text PRIMARY KEY, by_user text NOT NULL, at text NOT NULL
    );
    -- Budgets changed from chat; they override burnrate.yml until removed there and here.
    CREATE TABLE budget_overrides (
      team text NOT NULL, cadence text NOT NULL CHECK (cadence IN ('monthly', 'weekly')), amount double precision NOT NULL,
      thresholds text, by_user text NOT NULL, at text NOT NULL,
      PRIMARY KEY (team, cadence)
    );

    -- Alerts leave through the outbox, leased before they are sent (outbox-table.ts). An item may
    -- update or reply to an earlier one (parent_key): it waits until that one has a ref.
    CREATE TABLE outbox (
      id ${identity}, dedupe_key text NOT NULL UNIQUE, target text NOT NULL, message text NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'sent', 'failed')),
      attempts integer NOT NULL DEFAULT 0, next_attempt_at text NOT NULL, ref text, last_error text, created_at text NOT NULL,
      sent_at text, op text NOT NULL DEFAULT 'post' CHECK (op IN ('post', 'update', 'reply')), parent_key text,
      lease_owner text, lease_until text,
      in_doubt integer NOT NULL DEFAULT 0, -- the last attempt may have reached the platform: look before posting again
      first_attempt_at text,
      first_failure_at text, -- starts the retry budget
      suspected_duplicate integer NOT NULL DEFAULT 0
    );
    CREATE INDEX outbox_due ON outbox (status, next_attempt_at);
    CREATE INDEX outbox_parent ON outbox (parent_key);
    -- The first message of an alert group on each platform: escalations update it and reply in its thread.
    CREATE TABLE alert_threads (
      group_key text NOT NULL, platform text NOT NULL, root_key text NOT NULL,
      PRIMARY KEY (group_key, platform)
    );

    -- The local web console's messages: thread replies (parent_id), edits (updated_at), and rows
    -- seen by one user only (private_to); channel '@dm' is each user's direct messages with burnrate.
    CREATE TABLE console_messages (
      id ${identity}, channel text NOT NULL, parent_id bigint REFERENCES console_messages (id), private_to text, author text,
      message text NOT NULL, created_at text NOT NULL, updated_at text NOT NULL
    );
    CREATE INDEX console_messages_channel ON console_messages (channel, id);
    -- Where a chat platform's conversations can be reached later (Teams: the conversation reference, JSON).
    CREATE TABLE chat_conversations (
      platform text NOT NULL, conversation_id text NOT NULL, kind text NOT NULL, reference text NOT NULL,
      updated_at text NOT NULL,
      PRIMARY KEY (platform, conversation_id)
    );

    -- "Keep it running": the idle check leaves the instance alone until then.
    CREATE TABLE keep_exceptions (
      instance_id text PRIMARY KEY, until text NOT NULL, by_user text NOT NULL, at text NOT NULL
    );
    -- One row per finding and action, written before the cloud is asked: a second click does nothing twice.
    CREATE TABLE instance_actions (
      finding_id text NOT NULL, action text NOT NULL, instance_id text NOT NULL, by_user text NOT NULL, at text NOT NULL,
      outcome text, -- null while the action runs
      detail text,
      PRIMARY KEY (finding_id, action)
    );
    -- "Not ours": later GPU checks route the instance to this team, whatever its tags say.
    CREATE TABLE instance_owners (
      instance_id text PRIMARY KEY, team text NOT NULL, by_user text NOT NULL, at text NOT NULL
    );

    -- Each attempt to move an instance's launch template to spot, from its first approval to its
    -- revert; at most one active per instance. place: where the template lives (demo, aws:<region>).
    CREATE TABLE spot_migrations (
      id ${identity}, instance_id text NOT NULL, team text NOT NULL, launch_template text NOT NULL,
      monthly_saving double precision NOT NULL, approvals_needed integer NOT NULL CHECK (approvals_needed IN (1, 2)),
      state text NOT NULL CHECK (state IN ('approving', 'migrating', 'migrated', 'reverting', 'reverted')),
      previous_version text, spot_version text, created_at text NOT NULL, migrated_at text, reverted_by text, reverted_at text,
      detail text,
      changed_at text NOT NULL, -- a claim older than a few minutes died with its process
      place text
    );
    CREATE UNIQUE INDEX spot_migrations_active ON spot_migrations (instance_id) WHERE state <> 'reverted';
    CREATE TABLE spot_approvals (
      migration_id bigint NOT NULL REFERENCES spot_migrations (id), approver text NOT NULL, at text NOT NULL,
      ${insertionOrderColumn}
      PRIMARY KEY (migration_id, approver)
    );

    -- A team's monthly cost review, closed once its summary is queued, and its top cost lines with the team's answers.
    CREATE TABLE reviews (
      team text NOT NULL, month text NOT NULL, body text NOT NULL, created_at text NOT NULL, closes_at text NOT NULL,
      reminded_at text, closed_at text,
      PRIMARY KEY (team, month)
    );
    CREATE TABLE review_lines (
      id ${identity}, team text NOT NULL, month text NOT NULL, rank integer NOT NULL, body text NOT NULL,
      answer text CHECK (answer IN ('still-needed', 'right-size', 'spot', 'not-ours')), answered_by text, answered_at text,
      owner text, owner_by text, owner_at text, reminded_at text,
      UNIQUE (team, month, rank),
      FOREIGN KEY (team, month) REFERENCES reviews (team, month)
    );

    -- Each resource an action stopped, with what it cost a day as the action saw it.
    CREATE TABLE savings_ledger (
      action text NOT NULL, ref text NOT NULL, resource_id text NOT NULL, name text, team text, at text NOT NULL,
      by_user text NOT NULL, expected_daily double precision NOT NULL, currency text NOT NULL,
      ${insertionOrderColumn}
      PRIMARY KEY (action, ref, resource_id)
    );

    -- Kubernetes GPU usage per UTC day: each node's GPUs held by each workload (none: workload ''),
    -- as node-hours; a node-day's cost is split over its rows by these shares.
    CREATE TABLE kube_gpu_usage (
      day text NOT NULL, cluster text NOT NULL, node text NOT NULL, node_instance_id text,
      node_hourly double precision NOT NULL, namespace text NOT NULL, workload text NOT NULL, team text,
      node_hours double precision NOT NULL,
      PRIMARY KEY (day, cluster, node, namespace, workload)
    );
    CREATE TABLE kube_usage_samples (
      cluster text PRIMARY KEY, at text NOT NULL
    );
    -- Each GPU node pool at each sample: a pool that never empties while its GPUs sit unrequested is static capacity.
    CREATE TABLE kube_pool_samples (
      cluster text NOT NULL, pool text NOT NULL, manager text, at text NOT NULL, hours double precision NOT NULL,
      nodes integer NOT NULL, gpus double precision NOT NULL, requested double precision NOT NULL,
      hourly double precision NOT NULL,
      PRIMARY KEY (cluster, pool, at)
    );

    -- Claims that make several processes act once: a chat delivery, a scheduled job's occurrence.
    CREATE TABLE inbound_claims (
      key text PRIMARY KEY, expires_at text NOT NULL
    );
    CREATE INDEX inbound_claims_expiry ON inbound_claims (expires_at);
    CREATE TABLE job_runs (
      job text NOT NULL, occurrence text NOT NULL, owner text NOT NULL, at text NOT NULL,
      PRIMARY KEY (job, occurrence)
    );
  `;
}
