import type { SavingEntry } from '../../domain/saving.js';
import { DAYS_PER_MONTH, entryFromRow, RESUMED_AT, SAVINGS_ORDER, type LedgerRow, type SavingsLedgerStore } from '../savings-ledger.js';
import type { PgDb } from './pg-db.js';

/**
 * The same three kinds of entry as SqliteSavingsLedgerStore, in the same order. A review line's
 * first right-size recommendation is read with jsonb, in array order; `seq` stands for SQLite's rowid.
 */
const SINCE = `
  SELECT s.action, s.ref, s.resource_id AS "resourceId", s.name, s.team, s.at, s.by_user AS "byUser", s.expected_daily AS "expectedDaily",
    s.currency, ${RESUMED_AT} AS "endedAt", 0 AS part, s.seq
  FROM savings_ledger s WHERE s.at >= $1
  UNION ALL
  SELECT 'spot.approve', 'migration:' || m.id, m.instance_id, NULL, m.team, m.migrated_at,
    (SELECT approver FROM spot_approvals a WHERE a.migration_id = m.id ORDER BY a.at DESC, a.seq DESC LIMIT 1),
    m.monthly_saving / ${DAYS_PER_MONTH}, 'USD', m.reverted_at, 1, m.id
  FROM spot_migrations m WHERE m.migrated_at IS NOT NULL AND m.migrated_at >= $1
  UNION ALL
  SELECT 'review.right-size', 'review:' || team || ':' || month || ':' || rank, "resourceId", label, team, answered_at,
    answered_by, "monthlySaving" / ${DAYS_PER_MONTH}, 'USD', NULL, 2, id
  FROM (SELECT l.*, l.body::jsonb ->> 'resourceId' AS "resourceId", l.body::jsonb ->> 'label' AS label,
          (SELECT (r.value ->> 'monthlySaving')::double precision
           FROM jsonb_array_elements(l.body::jsonb -> 'recommendations') WITH ORDINALITY AS r (value, n)
           WHERE r.value ->> 'kind' = 'right-size' ORDER BY r.n LIMIT 1) AS "monthlySaving"
        FROM review_lines l WHERE l.answer = 'right-size' AND l.answered_at >= $1) line
  WHERE "resourceId" IS NOT NULL AND "monthlySaving" > 0
  ${SAVINGS_ORDER}`;

export class PgSavingsLedgerStore implements SavingsLedgerStore {
  constructor(private readonly db: PgDb) {}

  async since(since: string): Promise<SavingEntry[]> {
    return (await this.db.rows<LedgerRow>(SINCE, [since])).map(entryFromRow);
  }
}
