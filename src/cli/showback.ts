import { showback } from '../checks/review/showback.js';
import { monthOf } from '../domain/period.js';
import { parseReviewMonth, lastMonth } from '../jobs/review/review-calendar.js';
import { refreshSources } from '../jobs/refresh-sources.js';
import { runtimeOf } from './runtime-of.js';
import { COMMON_OPTIONS, oneOf, parseVerbArgs } from './args.js';
import type { Verb } from './io.js';

const USAGE = 'burnrate showback [--month YYYY-MM] [--format csv|json]';
const FORMATS = ['csv', 'json'] as const;

/**
 * Each team's spend of a month with its share of what nobody owns (untagged and unmapped spend,
 * spread in proportion to direct spend), so the lines add up to the bill. CSV by default.
 */
export const showbackVerb: Verb = async (args, io) => {
  const { values } = parseVerbArgs(args, { ...COMMON_OPTIONS, month: { type: 'string' }, format: { type: 'string' } }, USAGE);
  const format = oneOf(values.format, FORMATS, 'format', USAGE) ?? 'csv';
  const now = (io.clock ?? (() => new Date()))();
  const month = values.month === undefined ? lastMonth(now, 'UTC') : parseReviewMonth(values.month, now);
  const runtime = runtimeOf(values, io, { chatPlatforms: false });
  try {
    const { deps } = runtime;
    if (await deps.store.isEmpty()) await refreshSources(deps);
    const period = monthOf(`${month}-01`);
    const result = showback(await deps.store.spend.totals({ period }, 'team'), deps.config.teams);
    const currencies = await deps.store.spend.currencies(period);
    if (format === 'json') {
      io.out.write(
        `${JSON.stringify({ month, currency: currencies.length === 1 ? currencies[0] : currencies, teams: result.lines, unowned: result.unowned, total: result.total }, null, 2)}\n`,
      );
      return 0;
    }
    const rows = [['month', 'team', 'team_name', 'direct', 'shared_untagged', 'total', 'share', 'budget'].join(',')];
    for (const l of result.lines)
      rows.push(
        [
          month,
          l.team,
          csvField(l.teamName),
          l.direct.toFixed(2),
          l.shared.toFixed(2),
          l.total.toFixed(2),
          l.share.toFixed(4),
          l.budget === null ? '' : l.budget.toFixed(2),
        ].join(','),
      );
    io.out.write(`${rows.join('\n')}\n`);
    return 0;
  } finally {
    await runtime.close();
  }
};

/** A CSV field, quoted when it holds a comma, quote or line break; a leading =+-@ is defused for spreadsheets. */
function csvField(text: string): string {
  const safe = /^[=+\-@]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
