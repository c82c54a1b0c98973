import { monthOf, toDay } from '../src/domain/period.js';
import { spendSummary } from '../templates/spend-summary.js';
import { readChatArgs } from './chat-args.js';
import type { CommandSpec } from './command.js';
import { spendReport } from './spend.js';
import { notInAnyTeam } from './team-arg.js';
import { badArguments } from './usage.js';

const MAX_LINES = 50;

export const topCommand: CommandSpec = {
  verb: 'top',
  usage: '/burnrate top [n] [team] [period]',
  example: '/burnrate top 5 llm-training',
  summary: 'the largest cost lines (resources)',
  async run(ctx, words) {
    const today = toDay(ctx.now);
    const args = readChatArgs(ctx.deps.config, words, today, ctx.visibleTeams);
    if (args.problems.length > 0) throw badArguments(this, args.problems.join('; '));
    const n = args.numbers[0] ?? 10;
    if (args.unknown.length > 0 || args.numbers.length > 1 || args.by) throw badArguments(this, `I don't understand "${words.join(' ')}"`);
    if (n < 1 || n > MAX_LINES) throw badArguments(this, `n must be between 1 and ${MAX_LINES}`);
    if (ctx.visibleTeams.length === 0) throw notInAnyTeam(ctx.actor.userId);
    const report = await spendReport(ctx.deps, {
      period: args.period ?? monthOf(today),
      by: 'resource',
      visibleTeams: ctx.visibleTeams,
      ...(args.team ? { team: args.team } : {}),
    });
    return spendSummary(
      { ...report, rows: report.rows.slice(0, n) },
      `top ${n} of ${report.teams?.length === 1 ? report.teams[0] : 'your teams'}`,
    );
  },
};
