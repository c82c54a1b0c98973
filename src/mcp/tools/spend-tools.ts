import { z } from 'zod';
import { spendReport } from '../../../commands/spend.js';
import { spendSummary } from '../../../templates/spend-summary.js';
import { parsePeriod, toDay } from '../../domain/period.js';
import { KUBE_DIMENSIONS } from '../../domain/spend.js';
import { askedScope } from '../mcp-caller.js';
import { asJson, defineTool, teamArg, textOf } from './tool.js';
import type { CommandContext } from '../../../commands/command.js';

const DIMENSIONS = ['team', 'service', 'resource', 'day', 'provider', ...KUBE_DIMENSIONS] as const;
const MAX_TOP = 50;

export const period = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .optional()
  .describe('this-month (default), last-month, YYYY-MM, or a range YYYY-MM-DD..YYYY-MM-DD');

const REPORT_FIELDS = {
  period: 'the days covered: start inclusive, end exclusive',
  by: 'how the rows are split',
  basis: 'charge (days used) or invoice (billing periods)',
  currency: 'every amount is in this currency, converted at each billing period’s rate',
  total: 'the sum of the rows',
  rows: 'one line per team, service, resource or day, largest first',
  teams: 'the teams the figures cover',
  dataThrough: 'end of the data (exclusive); null before any import',
  warnings: 'caveats a reader must know, e.g. currencies converted',
};

/** The spend report for a caller: the team resolved within the teams they may see; with `explain`, how its total was computed. */
export async function reportFor(
  caller: CommandContext,
  args: { team?: string | undefined; period?: string | undefined },
  by: (typeof DIMENSIONS)[number],
  basis: 'charge' | 'invoice',
  explain = false,
) {
  const { team } = askedScope(caller, args.team);
  return spendReport(caller.deps, {
    period: parsePeriod(args.period ?? 'this-month', toDay(caller.now)),
    by,
    basis,
    visibleTeams: caller.visibleTeams,
    ...(team ? { team } : {}),
    ...(explain ? { explain } : {}),
  });
}

export const spendTool = defineTool({
  name: 'spend',
  title: 'Spend',
  description:
    'What a team (or every team you may see) spent in a period, split by team, service, resource, day, provider or Kubernetes namespace/workload: the figures `burnrate spend --json` and `/burnrate spend` give.',
  input: {
    team: teamArg,
    period,
    by: z.enum(DIMENSIONS).optional().describe('How to split the spend; service for one team, team otherwise.'),
    basis: z.enum(['charge', 'invoice']).optional().describe('charge (default): by the days used; invoice: by billing period.'),
  },
  output: REPORT_FIELDS,
  async run(caller, args) {
    const report = await reportFor(caller, args, args.by ?? (args.team ? 'service' : 'team'), args.basis ?? 'charge');
    return { data: asJson(report), summary: textOf(spendSummary(report, report.teams?.join(', ') ?? 'your teams')) };
  },
});

export const topCostsTool = defineTool({
  name: 'top_costs',
  title: 'Largest cost lines',
  description: 'The n largest resources by spend in a period, for one team or every team you may see (`/burnrate top`).',
  input: {
    team: teamArg,
    period,
    n: z.number().int().min(1).max(MAX_TOP).optional().describe(`How many lines, 1 to ${MAX_TOP} (10 by default).`),
  },
  output: REPORT_FIELDS,
  async run(caller, args) {
    const report = await reportFor(caller, args, 'resource', 'charge');
    const top = { ...report, rows: report.rows.slice(0, args.n ?? 10) };
    return {
      data: asJson(top),
      summary: textOf(spendSummary(top, `top ${top.rows.length} of ${report.teams?.join(', ') ?? 'your teams'}`)),
    };
  },
});
