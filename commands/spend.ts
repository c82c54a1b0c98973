import type { Deps } from '../src/deps.js';
import { loadSpendReport, type SpendReportQuery } from '../src/snapshots/spend-report.js';
import type { SpendReport } from '../src/domain/spend-report.js';
import { monthOf, toDay } from '../src/domain/period.js';
import { spendSummary } from '../templates/spend-summary.js';
import { readChatArgs } from './chat-args.js';
import type { CommandSpec } from './command.js';
import { notInAnyTeam, resolveTeamId } from './team-arg.js';
import { badArguments } from './usage.js';

export interface SpendQuery extends Omit<SpendReportQuery, 'team'> {
  /** A team id or one of its match values; undefined for the teams the caller may see. */
  team?: string;
}

/** The spend report for what a user typed: the team resolved (and checked against what they may see) first. */
export function spendReport(
  deps: Pick<Deps, 'config' | 'store' | 'clock' | 'log'> & Partial<Pick<Deps, 'gpu'>>,
  query: SpendQuery,
): Promise<SpendReport> {
  const team = query.team === undefined ? undefined : resolveTeamId(deps.config, query.team, query.visibleTeams);
  return loadSpendReport(deps, { ...query, team });
}

export const spendCommand: CommandSpec = {
  verb: 'spend',
  usage: '/burnrate spend [team] [period] [by team|service|resource|day|provider|namespace|workload]',
  example: '/burnrate spend ml-research last-month by service',
  summary: 'what a team spent, on what',
  async run(ctx, words) {
    const today = toDay(ctx.now);
    const args = readChatArgs(ctx.deps.config, words, today, ctx.visibleTeams);
    if (args.problems.length > 0) throw badArguments(this, args.problems.join('; '));
    if (args.numbers.length > 0) throw badArguments(this, `"${args.numbers.join(' ')}" is not a team, a period or a way to split spend`);
    if (ctx.visibleTeams.length === 0) throw notInAnyTeam(ctx.actor.userId);
    const team = args.team ?? (ctx.visibleTeams.length === 1 ? ctx.visibleTeams[0] : undefined);
    const by = args.by ?? (team ? 'service' : 'team');
    const report = await spendReport(ctx.deps, {
      period: args.period ?? monthOf(today),
      by,
      visibleTeams: ctx.visibleTeams,
      ...(team ? { team } : {}),
    });
    // The chart's modules (forecast, renderer) load with the first chart, not with every reader of spendReport (the CLI);
    // only a split by day draws one, so other answers skip even the module lookup.
    const chart = report.by === 'day' ? await (await import('./spend-chart.js')).spendByDayChart(ctx.deps, report, ctx.now) : null;
    return spendSummary(report, report.teams?.length === 1 ? report.teams[0]! : 'your teams', chart?.toString('base64'));
  },
};
