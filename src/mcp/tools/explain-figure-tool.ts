import { z } from 'zod';
import { BurnrateError } from '../../domain/errors.js';
import { explainBudget } from './explain-budget.js';
import { explainSpend } from './explain-spend.js';
import { explainWaste } from './explain-waste.js';
import { period } from './spend-tools.js';
import { defineTool, monthArg, teamArg } from './tool.js';

const FIGURES = ['spend', 'budget', 'waste'] as const;
type Figure = (typeof FIGURES)[number];

/** The arguments each figure takes beside `figure` and `team`: any other is refused, not ignored. */
const TAKES: Record<Figure, readonly string[]> = {
  spend: ['period', 'basis'],
  budget: ['cadence'],
  waste: ['month', 'days'],
};
const OPTIONAL = ['period', 'basis', 'cadence', 'month', 'days'] as const;

export const explainFigureTool = defineTool({
  name: 'explain_figure',
  title: 'How a figure was computed',
  description:
    'How burnrate computed a figure, by the same computation that makes it, so the parts add up to it. spend: the days read, the bill rows, each currency and billing period at its rate. budget: the spent days, and the forecast as the budget alert makes it (method, 80% range, the level or trend fitted, the days left out as unusual, its parts). waste: per cause, the instances (GPU-hours, rate, share) and unused commitments behind its monthly figure.',
  input: {
    figure: z
      .enum(FIGURES)
      .optional()
      .describe(
        'spend (the default): the total `spend` gives for the team, period and basis; budget: `budgets`’ spent and forecast (cadence); waste: `waste`’s causes (month or days).',
      ),
    team: teamArg,
    period: period.describe('spend only: this-month (default), last-month, YYYY-MM, or YYYY-MM-DD..YYYY-MM-DD'),
    basis: z.enum(['charge', 'invoice']).optional().describe('spend only: charge (default), by the days used; invoice, by billing period.'),
    cadence: z.enum(['monthly', 'weekly']).optional().describe('budget only: the monthly or weekly budget; leave it out for both.'),
    month: monthArg.describe('waste only: a month as YYYY-MM; leave it out (and days) for the last 30 days.'),
    days: z.number().int().min(1).max(92).optional().describe('waste only: the last N whole days (1 to 92).'),
  },
  output: {
    figure: 'which figure, for which teams and period',
    value: 'spend: the figure, billed and effective, in currency',
    currency: 'spend and waste: the currency of the figure and of every part',
    basis: 'what the figure counts, in words',
    read: 'spend: the days whose rows were read (start inclusive, end exclusive)',
    rows: 'spend: bill rows (daily rows) added up',
    parts:
      'spend: per currency and billing period: rows, amounts in its own currency, the rate to the figure’s currency (null: left out), what it adds',
    budgets:
      'budget: per budget: spent (value, days read, each day’s spend, currencies converted) and forecast (value, method, range, remaining days, history, fitted level or trend, backtest errors, unusual days, parts adding up to it)',
    period: 'waste: the days diagnosed and whether figures are scaled to a month',
    teams: 'waste: per team (and the organisation for an admin asking for every team): each cause with the parts that make it',
    notes: 'conversions and caveats, as the figure’s own answer states them',
    dataThrough: 'end of the data (exclusive)',
  },
  async run(caller, args) {
    const figure = args.figure ?? 'spend';
    const misfit = OPTIONAL.filter((name) => args[name] !== undefined && !TAKES[figure].includes(name));
    if (misfit.length > 0)
      throw new BurnrateError(
        'burnrate_usage',
        `${misfit.map((m) => `"${m}"`).join(' and ')} ${misfit.length === 1 ? 'does' : 'do'} not apply to the ${figure} figure`,
        'spend takes team, period and basis; budget takes team and cadence; waste takes team and month or days.',
      );
    if (figure === 'budget') return explainBudget(caller, args);
    if (figure === 'waste') return explainWaste(caller, args);
    return explainSpend(caller, args);
  },
});
