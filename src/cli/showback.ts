import type { Showback } from '../checks/review/showback.js';
import type { Deps } from '../deps.js';
import { BurnrateError } from '../domain/errors.js';
import { loadMonthShowback } from '../snapshots/month-showback.js';
import { parseReviewMonth, lastMonth } from '../jobs/review/review-calendar.js';
import { refreshSources } from '../jobs/refresh-sources.js';
import { runtimeOf } from './runtime-of.js';
import { COMMON_OPTIONS, oneOf, parseVerbArgs } from './args.js';
import type { Verb } from './io.js';
import { jsonText } from '../domain/json-text.js';
import { HELP_PAGES } from './help-pages.js';

const USAGE = HELP_PAGES.showback.usage;
const FORMATS = ['csv', 'json'] as const;

/**
 * A billing period's showback that ties to the invoice: each team's direct spend with its share of
 * shared costs and unused commitment, the organisation's lines nobody carries (unallocated,
 * unmapped, unused commitment without an owner), and the reconciliation to the billed total. CSV
 * by default; amounts in the fx base currency.
 */
export const showbackVerb: Verb = async (args, io) => {
  const { values } = parseVerbArgs(args, { ...COMMON_OPTIONS, month: { type: 'string' }, format: { type: 'string' } }, USAGE);
  const format = oneOf(values.format, FORMATS, 'format', USAGE) ?? 'csv';
  const now = (io.clock ?? (() => new Date()))();
  const month = values.month === undefined ? lastMonth(now, 'UTC') : parseReviewMonth(values.month, now);
  const runtime = await runtimeOf(values, io, { chatPlatforms: false });
  try {
    const { deps } = runtime;
    if (await deps.store.isEmpty()) await refreshSources(deps);
    const { result, currency } = await monthShowback(deps, month);
    if (format === 'json') {
      io.out.write(`${jsonText({ month, currency, ...result, teams: result.lines, lines: undefined })}\n`);
      return 0;
    }
    io.out.write(`${showbackCsv(month, result).join('\n')}\n`);
    return 0;
  } finally {
    await runtime.close();
  }
};

/** The showback of a billing period in the fx base currency; a currency without a rate is an error naming it. */
export async function monthShowback(deps: Deps, month: string): Promise<{ result: Showback; currency: string }> {
  const { result, currency, missing } = await loadMonthShowback(deps, month);
  if (missing.length > 0)
    throw new BurnrateError(
      'burnrate_fx_missing',
      `${month} has spend in ${missing.join(', ')}, and burnrate.yml has no exchange rate to ${currency} for it: amounts in different currencies are never added.`,
      `Add fx: { base: ${currency}, asOf: YYYY-MM-DD, rates: { ${missing.map((c) => `${c}: <${currency} per ${c}>`).join(', ')} } } to burnrate.yml.`,
    );
  return { result, currency };
}

/** Team rows, then the organisation's lines and the reconciliation to the billed total, in the documented columns. */
function showbackCsv(month: string, result: Showback): string[] {
  const rows = [['month', 'team', 'team_name', 'direct', 'shared_untagged', 'total', 'share', 'budget'].join(',')];
  for (const l of result.lines)
    rows.push(
      [
        month,
        l.team,
        csvField(l.teamName),
        l.direct.toFixed(2),
        (l.shared + (l.commitment ?? 0)).toFixed(2),
        l.total.toFixed(2),
        l.share.toFixed(4),
        l.budget === null ? '' : l.budget.toFixed(2),
      ].join(','),
    );
  const share = (amount: number) => (result.total !== 0 ? amount / result.total : 0).toFixed(4);
  for (const o of result.organisation)
    rows.push([month, csvField(o.key), csvField(o.note), o.amount.toFixed(2), '0.00', o.amount.toFixed(2), share(o.amount), ''].join(','));
  const r = result.reconciliation;
  const difference = r.billed - r.effective;
  rows.push(
    [
      month,
      '(reconciliation)',
      csvField(
        `billed ${r.billed.toFixed(2)} = shown ${r.effective.toFixed(2)} + purchases ${r.purchases.toFixed(2)} + unused commitment ${r.unusedCommitment.toFixed(2)} + amortised usage ${r.amortisedUsage.toFixed(2)}`,
      ),
      difference.toFixed(2),
      '0.00',
      difference.toFixed(2),
      '',
      '',
    ].join(','),
  );
  return rows;
}

/** A CSV field, quoted when it holds a comma, quote or line break; a leading =+-@ is defused for spreadsheets. */
function csvField(text: string): string {
  const safe = /^[=+\-@]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
