import type Database from 'better-sqlite3';
import type { SavingAction, SavingEntry } from '../../domain/saving.js';

export interface SavingsLedgerStore {
  /**
   * Entries of actions taken from `since` (ISO) on: stops and sweep stops as recorded, spot
   * migrations as migrated (their saving a day from the recommendation, ended by a revert), and
   * review lines a team answered "Right-size" where the line carried a right-size recommendation
   * (its saving a day; the bill confirms it once the instance runs as the smaller type, and an
   * answer changed since takes the entry back).
   */
  since(since: string): Promise<SavingEntry[]>;
}

/** An entry as both stores' queries return it. */
export interface LedgerRow {
  action: SavingAction;
  ref: string;
  resourceId: string;
  name: string | null;
  team: string | null;
  at: string;
  byUser: string;
  expectedDaily: number;
  currency: string;
  endedAt: string | null;
}

/** Days in an average month: a migration's monthly saving as a saving a day. */
export const DAYS_PER_MONTH = 365.25 / 12;

/**
 * Entries oldest first; those of one instant (a sweep's stops) in the order they were written:
 * the ledger's own, then migrations, then review lines, each in insertion order (`seq`).
 */
export const SAVINGS_ORDER = 'ORDER BY at, part, seq';

/** The insert a completing action runs inside its own transaction; a second completion adds nothing. */
export function savingInsert(db: Database.Database): (entry: SavingEntry) => void {
  const statement = db.prepare<[string, string, string, string | null, string | null, string, string, number, string]>(
    `INSERT INTO savings_ledger (action, ref, resource_id, name, team, at, by_user, expected_daily, currency)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (action, ref, resource_id) DO NOTHING`,
  );
  return (e) => {
    statement.run(e.action, e.ref, e.resourceId, e.name, e.team, e.at.toISOString(), e.byUser, e.expectedDaily, e.currency);
  };
}

export class SqliteSavingsLedgerStore implements SavingsLedgerStore {
  private readonly sinceStatement: Database.Statement<[string, string, string], LedgerRow>;

  constructor(db: Database.Database) {
    this.sinceStatement = db.prepare(
      `SELECT action, ref, resource_id AS resourceId, name, team, at, by_user AS byUser, expected_daily AS expectedDaily, currency,
         NULL AS endedAt, 0 AS part, rowid AS seq
       FROM savings_ledger WHERE at >= ?
       UNION ALL
       SELECT 'spot.approve', 'migration:' || m.id, m.instance_id, NULL, m.team, m.migrated_at,
         (SELECT approver FROM spot_approvals a WHERE a.migration_id = m.id ORDER BY a.at DESC, a.rowid DESC LIMIT 1),
         m.monthly_saving / ${DAYS_PER_MONTH}, 'USD', m.reverted_at, 1, m.id
       FROM spot_migrations m WHERE m.migrated_at IS NOT NULL AND m.migrated_at >= ?
       UNION ALL
       SELECT 'review.right-size', 'review:' || team || ':' || month || ':' || rank, resourceId, label, team, answered_at,
         answered_by, monthlySaving / ${DAYS_PER_MONTH}, 'USD', NULL, 2, id
       FROM (SELECT l.*, json_extract(l.body, '$.resourceId') AS resourceId, json_extract(l.body, '$.label') AS label,
               (SELECT json_extract(r.value, '$.monthlySaving') FROM json_each(l.body, '$.recommendations') r
                WHERE json_extract(r.value, '$.kind') = 'right-size') AS monthlySaving
             FROM review_lines l WHERE l.answer = 'right-size' AND l.answered_at >= ?)
       WHERE resourceId IS NOT NULL AND monthlySaving > 0
       ${SAVINGS_ORDER}`,
    );
  }

  async since(since: string): Promise<SavingEntry[]> {
    return this.sinceStatement.all(since, since, since).map(entryFromRow);
  }
}

export function entryFromRow(r: LedgerRow): SavingEntry {
  return {
    action: r.action,
    ref: r.ref,
    resourceId: r.resourceId,
    name: r.name,
    team: r.team,
    at: new Date(r.at),
    byUser: r.byUser,
    expectedDaily: r.expectedDaily,
    currency: r.currency,
    ...(r.endedAt ? { endedAt: new Date(r.endedAt) } : {}),
  };
}
