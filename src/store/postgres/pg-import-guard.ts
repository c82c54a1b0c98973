import { postgresMoneySum } from '../dialect/money-sum.js';
// The shrink guard of import-guard.ts: spend per billing period, account and currency of a source,
// read before and after an import inside its transaction, and compared there (refuseShrinking).

import { periodSpendKey } from '../import-guard.js';
import type { PgSession } from './pg-session.js';

/** Effective spend per billing period, account and currency of a source, keyed by periodSpendKey. */
export async function periodSpend(tx: PgSession, source: string, periods: readonly string[]): Promise<Map<string, number>> {
  // The key is built here, not in SQL: Postgres text cannot hold the NUL that separates its parts.
  const rows = await tx.rows<{ period: string; account: string; currency: string; effective: number }>(
    `SELECT billing_period AS period, billing_account AS account, currency, ${postgresMoneySum('effective')} AS effective
     FROM spend_daily WHERE source = $1 AND billing_period = ANY($2::text[])
     GROUP BY billing_period, billing_account, currency`,
    [source, periods],
  );
  return new Map(rows.map((r) => [periodSpendKey(r.period, r.account, r.currency), r.effective]));
}
