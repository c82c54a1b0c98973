// A guard against an import that silently loses most of a month: a one-row file of a bad export, or
// a part imported again much smaller than before. Spend is compared per billing period, account and
// currency of the import's source, before and after, inside the import's transaction.

import { BurnrateError } from '../domain/errors.js';
import type { Session } from './session.js';

/** An import may not take away more than this share of a billing period's spend without --replace-period. */
const MAX_SHRINK = 0.5;

/** The key periodSpend gives a billing period's spend in an account and currency. */
function periodSpendKey(period: string, account: string, currency: string): string {
  return `${period}\u0000${account}\u0000${currency}`;
}

/** Throws (rolling the import back) when a period's spend would fall by more than half. */
export function refuseShrinking(source: string, before: ReadonlyMap<string, number>, after: ReadonlyMap<string, number>): void {
  const shrunk: string[] = [];
  for (const [key, was] of before) {
    const now = after.get(key) ?? 0;
    if (was > 0 && now < was * (1 - MAX_SHRINK)) {
      const [period, account, currency] = key.split('\u0000') as [string, string, string];
      const share = Math.round((1 - now / was) * 100);
      shrunk.push(
        `billing period ${period}${account ? ` of account ${account}` : ''}: ${money(was)} ${currency} before, ${money(now)} ${currency} after (-${share}%)`,
      );
    }
  }
  if (shrunk.length === 0) return;
  throw new BurnrateError(
    'burnrate_import_shrinks',
    `this import would shrink the effective spend of source ${source} by more than half: ${shrunk.join('; ')}`,
    'Nothing was imported. If the files are a complete, corrected export of the period, import them again with --replace-period; otherwise check the export (a partial or failed export is often a single small file).',
  );
}

function money(amount: number): string {
  return amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** Effective spend per billing period, account and currency of a source, keyed by periodSpendKey. */
export async function periodSpend(tx: Session, source: string, periods: readonly string[]): Promise<Map<string, number>> {
  // The key is built here, not in SQL: Postgres text cannot hold the NUL that separates its parts.
  const rows = await tx.rows<{ period: string; account: string; currency: string; effective: number }>(
    `SELECT billing_period AS period, billing_account AS account, currency, ${tx.dialect.money('effective')} AS effective
     FROM spend_daily WHERE source = ? AND ${tx.dialect.inList('billing_period')}
     GROUP BY billing_period, billing_account, currency`,
    [source, tx.dialect.list(periods)],
  );
  return new Map(rows.map((r) => [periodSpendKey(r.period, r.account, r.currency), r.effective]));
}
