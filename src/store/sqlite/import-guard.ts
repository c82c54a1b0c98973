import { sqliteMoneySum } from '../dialect/money-sum.js';
import type Database from 'better-sqlite3';

/** Effective spend per billing period, account and currency of a source: "period\u0000account\u0000currency" -> amount. */
export function periodSpend(db: Database.Database, source: string, periods: readonly string[]): Map<string, number> {
  const rows = db
    .prepare<[string, string], { key: string; effective: number }>(
      `SELECT billing_period || char(0) || billing_account || char(0) || currency AS key, ${sqliteMoneySum('effective')} AS effective
       FROM spend_daily WHERE source = ? AND billing_period IN (SELECT value FROM json_each(?))
       GROUP BY billing_period, billing_account, currency`,
    )
    .all(source, JSON.stringify(periods));
  return new Map(rows.map((r) => [r.key, r.effective]));
}
