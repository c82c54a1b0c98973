import { z } from 'zod';
import { formatMoney } from '../../domain/money.js';
import { asJson, defineTool, teamArg } from './tool.js';
import { period, reportFor } from './spend-tools.js';

export const explainFigureTool = defineTool({
  name: 'explain_figure',
  title: 'How a figure was computed',
  description:
    'How burnrate computed a spend figure (the total spend gives for a team, or every team you may see, in a period): the days read, the number of bill rows, and each currency and billing period with the exchange rate it was converted at and what it added. Computed by the same read as the figure itself, so the parts add up to it.',
  input: {
    figure: z
      .enum(['spend'])
      .optional()
      .describe(
        'spend (the default): the total `spend` (and `burnrate spend`, `/burnrate spend`) gives for the same team, period and basis.',
      ),
    team: teamArg,
    period,
    basis: z.enum(['charge', 'invoice']).optional().describe('charge (default): by the days used; invoice: by billing period.'),
  },
  output: {
    figure: 'which figure, for which teams and period',
    value: 'the figure: billed and effective, in currency',
    currency: 'the currency of the figure and of every part’s contribution',
    basis: 'what the figure counts, in words',
    read: 'the days whose rows were read (start inclusive, end exclusive)',
    rows: 'bill rows (daily rows) added up',
    parts:
      'per currency and billing period: rows, amounts in its own currency, the rate to the figure’s currency (null: left out), what it adds',
    notes: 'conversions and caveats, as the figure’s own answer states them',
    dataThrough: 'end of the data (exclusive)',
  },
  async run(caller, args) {
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
  },
});
