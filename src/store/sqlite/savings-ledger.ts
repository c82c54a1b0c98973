import type Database from 'better-sqlite3';
import type { SavingEntry } from '../../domain/saving.js';
import { DAYS_PER_MONTH, RESUMED_AT, SAVINGS_ORDER, entryFromRow, type SavingsLedgerStore, type LedgerRow } from '../savings-ledger.js';

export class SqliteSavingsLedgerStore implements SavingsLedgerStore {
  private readonly sinceStatement: Database.Statement<[string, string, string], LedgerRow>;

  constructor(db: Database.Database) {
    this.sinceStatement = db.prepare(
      `SELECT s.action, s.ref, s.resource_id AS resourceId, s.name, s.team, s.at, s.by_user AS byUser, s.expected_daily AS expectedDaily,
         s.currency, ${RESUMED_AT} AS endedAt, 0 AS part, s.rowid AS seq
       FROM savings_ledger s WHERE s.at >= ?
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
