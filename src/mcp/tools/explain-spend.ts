import type { CommandContext } from '../../../commands/command.js';
import { formatMoney } from '../../domain/money.js';
import { reportFor } from './spend-tools.js';
import { asJson, type ToolAnswer } from './tool.js';

/** How `spend`'s total for a team and period was computed: rows per currency and billing period, at their rates. */
export async function explainSpend(
  caller: CommandContext,
  args: { team?: string | undefined; period?: string | undefined; basis?: 'charge' | 'invoice' | undefined },
): Promise<ToolAnswer> {
  const basis = args.basis ?? 'charge';
  const report = await reportFor(caller, args, 'team', basis, true);
  const explanation = report.explanation!;
  const teams = report.teams?.join(', ') ?? 'every team';
  const read = `${explanation.read.start} to ${explanation.read.end} (exclusive)`;
  const words =
    basis === 'invoice'
      ? `the invoices of the billing periods ${read}, whatever the days the charges were incurred`
      : `charges incurred on the days ${read}: the period asked for, up to the end of the data`;
  const data = {
    figure: { name: 'spend', teams: report.teams ?? null, period: report.period },
    value: report.total,
    currency: report.currency,
    basis: `effective cost (after discounts and credits) and billed cost of ${words}, every amount converted at its own billing period's rate`,
    read: explanation.read,
    rows: explanation.rows,
    parts: explanation.parts,
    notes: report.warnings,
    dataThrough: report.dataThrough,
  };
  const parts = explanation.parts.map(
    (p) =>
      `${p.billingPeriod} ${p.currency}: ${p.rows} rows, ${formatMoney(p.effective, p.currency)}${
        p.currency === report.currency
          ? ''
          : p.rate === null
            ? ' (no rate: left out)'
            : ` at ${p.rate} = ${formatMoney(p.adds.effective, report.currency)}`
      }`,
  );
  return {
    data: asJson(data),
    summary: [
      `Spend of ${teams} for ${report.period.start}..${report.period.end}: ${formatMoney(report.total.effective, report.currency)} effective, ${formatMoney(report.total.billed, report.currency)} billed.`,
      `Computed from ${explanation.rows} bill rows of ${words}:`,
      ...parts.map((p) => `- ${p}`),
      ...report.warnings,
    ].join('\n'),
  };
}
