import { leftOutNote } from '../domain/left-out-currencies.js';
import { formatMoney } from '../domain/money.js';
import { monthOf, toDay } from '../domain/period.js';
import { parseMonth } from '../domain/calendar-range.js';
import { loadSavingsLedger } from '../snapshots/savings-ledger.js';
import { COMMON_OPTIONS, parseVerbArgs } from './args.js';
import type { Verb } from './io.js';
import { runtimeOf } from './runtime-of.js';
import { jsonText } from '../domain/json-text.js';
import { HELP_PAGES } from './help-pages.js';

const USAGE = HELP_PAGES.savings.usage;

/** The savings ledger: each action taken through burnrate, what it was expected to save, and what the bill confirms. */
export const savingsVerb: Verb = async (args, io) => {
  const { values } = parseVerbArgs(args, { ...COMMON_OPTIONS, month: { type: 'string' }, json: { type: 'boolean' } }, USAGE);
  const typed = values.month === undefined ? undefined : parseMonth(values.month);
  const runtime = await runtimeOf(values, io, { chatPlatforms: false });
  try {
    const { deps } = runtime;
    const month = monthOf(typed ? `${typed}-01` : toDay(deps.clock()));
    const ledger = await loadSavingsLedger(deps, month);
    if (values.json) {
      io.out.write(`${jsonText(ledger)}\n`);
      return 0;
    }
    const money = (n: number) => formatMoney(n, ledger.currency);
    const name = month.start.slice(0, 7);
    io.out.write(
      `burnrate actions saved ${money(ledger.realised)} in ${name} (confirmed by the bill${ledger.billedThrough ? ` up to ${ledger.billedThrough}` : ''}), ${money(ledger.expected)} expected\n`,
    );
    if (ledger.lines.length === 0) {
      io.out.write('No action taken through burnrate counts in this month.\n');
      return 0;
    }
    // Expected and confirmed side by side, one row per action and resource, then what each rests on.
    const rows = ledger.lines.map((l) => [
      l.at.toISOString().slice(0, 16).replace('T', ' '),
      l.action,
      l.name ?? l.resourceId,
      l.team ?? 'no team',
      l.byUser,
      `${l.days}${l.endedBy ? ` (${l.endedBy})` : ''}`,
      money(l.expected),
      l.realised === null ? '—' : `${money(l.realised)} (${l.confirmedDays} d)`,
      l.note,
    ]);
    io.out.write(`\n${table(['when', 'action', 'resource', 'team', 'by', 'days', 'expected', 'confirmed', 'note'], rows)}`);
    io.out.write(`\nExpected: ${ledger.basis.expected}.\nConfirmed: ${ledger.basis.realised}.\n`);
    const leftOut = leftOutNote(ledger.missing ?? [], ledger.currency);
    if (leftOut) io.out.write(`${leftOut}\n`);
    return 0;
  } finally {
    await runtime.close();
  }
};

/** Columns padded to their widest cell; the last one left as it is. */
function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [header, ...rows];
  const widths = header.map((_, c) => Math.max(...all.map((r) => r[c]!.length)));
  return all.map((r) => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]!))).join('  ')).join('\n') + '\n';
}
