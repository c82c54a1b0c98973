import { formatMoney } from '../domain/money.js';
import { monthOf, toDay } from '../domain/period.js';
import { parseMonth } from '../domain/calendar-range.js';
import { loadSavingsLedger } from '../snapshots/savings-ledger.js';
import { COMMON_OPTIONS, parseVerbArgs } from './args.js';
import type { Verb } from './io.js';
import { runtimeOf } from './runtime-of.js';

const USAGE = 'burnrate savings [--month YYYY-MM] [--json]';

/** The savings ledger: each action taken through burnrate, what it was expected to save, and what the bill confirms. */
export const savingsVerb: Verb = async (args, io) => {
  const { values } = parseVerbArgs(args, { ...COMMON_OPTIONS, month: { type: 'string' }, json: { type: 'boolean' } }, USAGE);
  const typed = values.month === undefined ? undefined : parseMonth(values.month);
  const runtime = runtimeOf(values, io, { chatPlatforms: false });
  try {
    const { deps } = runtime;
    const month = monthOf(typed ? `${typed}-01` : toDay(deps.clock()));
    const ledger = await loadSavingsLedger(deps, month);
    if (values.json) {
      io.out.write(`${JSON.stringify(ledger, null, 2)}\n`);
      return 0;
    }
    const money = (n: number) => formatMoney(n, ledger.currency);
    const name = month.start.slice(0, 7);
    io.out.write(
      `burnrate actions saved ${money(ledger.realised)} in ${name} (confirmed by the bill${ledger.billedThrough ? ` up to ${ledger.billedThrough}` : ''}), ${money(ledger.expected)} expected\n`,
    );
    if (ledger.lines.length === 0) io.out.write('No action taken through burnrate counts in this month.\n');
    for (const line of ledger.lines)
      io.out.write(
        `\n${line.at.toISOString().slice(0, 16).replace('T', ' ')} ${line.action} ${line.name ?? line.resourceId} (${line.team ?? 'no team'}) by ${line.byUser}\n  expected ${money(line.expected)}, confirmed ${line.realised === null ? '—' : money(line.realised)}: ${line.note}\n`,
      );
    return 0;
  } finally {
    await runtime.close();
  }
};
