import type { Deps } from '../src/deps.js';
import { combinedDataThrough } from '../src/domain/data-through.js';
import type { Period } from '../src/domain/period.js';
import type { SpendDimension } from '../src/domain/spend.js';
import type { SpendReport } from '../src/domain/spend-report.js';
import type { SpendBasis } from '../src/domain/spend-totals.js';
import { monthOf, PERIOD_SYNTAX, toDay } from '../src/domain/period.js';
import { spendSummary } from '../templates/spend-summary.js';
import { staleLine } from '../templates/stale-data-notice.js';
import { staleSources } from '../src/domain/staleness.js';
import { readChatArgs } from './chat-args.js';
import type { CommandSpec } from './command.js';
import { notInAnyTeam, resolveTeamId } from './team-arg.js';
import { badArguments } from './usage.js';

export interface SpendQuery {
  period: Period;
  by: SpendDimension;
  /** A team id or one of its match values; undefined for the teams the caller may see. */
  team?: string;
  /** Teams the caller may see; undefined means all (admins, the CLI). */
  visibleTeams?: readonly string[];
  /** Charge days (default) or the invoices' billing periods. */
  basis?: SpendBasis;
}

/** "What did we spend, on what": totals for a period grouped by one dimension. */
export async function spendReport(deps: Pick<Deps, 'config' | 'store' | 'clock'>, query: SpendQuery): Promise<SpendReport> {
  const team = query.team === undefined ? undefined : resolveTeamId(deps.config, query.team, query.visibleTeams);
  const teams = team ? [team] : query.visibleTeams ? [...query.visibleTeams] : undefined;
  const [rows, currencies, freshness, failures] = await Promise.all([
    deps.store.spend.totals({ period: query.period, teams, ...(query.basis ? { basis: query.basis } : {}) }, query.by),
    deps.store.spend.currencies(query.period),
    deps.store.freshness.list(),
    deps.store.freshness.failures(),
  ]);
  const total = rows.reduce((t, r) => ({ billed: t.billed + r.billed, effective: t.effective + r.effective }), { billed: 0, effective: 0 });
  const warnings = currencies.length > 1 ? [`amounts in ${currencies.join(', ')} are summed without conversion`] : [];
  // A failing source leaves its numbers short: say so next to them ("AWS data 26 h old (refresh failing)").
  const stale = staleSources(deps.config, freshness, failures, deps.clock()).filter((s) => s.kind === 'spend');
  if (stale.length > 0) warnings.push(staleLine(stale));
  return {
    period: query.period,
    currency: currencies[0] ?? deps.config.teams.find((t) => t.budget)?.budget?.currency ?? 'USD',
    by: query.by,
    ...(query.basis === 'invoice' ? { basis: 'invoice' as const } : {}),
    ...(teams ? { teams } : {}),
    rows,
    total,
    dataThrough: combinedDataThrough(freshness),
    warnings,
  };
}

export const spendCommand: CommandSpec = {
  verb: 'spend',
  usage: '/burnrate spend [team] [period] [by team|service|resource|day|provider]',
  example: '/burnrate spend ml-research last-month by service',
  summary: 'what a team spent, on what',
  async run(ctx, words) {
    const today = toDay(ctx.now);
    const args = readChatArgs(ctx.deps.config, words, today);
    if (args.unknown.length > 0 || args.numbers.length > 0) {
      throw badArguments(this, `I don't understand "${[...args.unknown, ...args.numbers].join(' ')}". Periods: ${PERIOD_SYNTAX}.`);
    }
    if (ctx.visibleTeams.length === 0) throw notInAnyTeam(ctx.actor.userId);
    const team = args.team ?? (ctx.visibleTeams.length === 1 ? ctx.visibleTeams[0] : undefined);
    const by = args.by ?? (team ? 'service' : 'team');
    const report = await spendReport(ctx.deps, {
      period: args.period ?? monthOf(today),
      by,
      visibleTeams: ctx.visibleTeams,
      ...(team ? { team } : {}),
    });
    return spendSummary(report, report.teams?.length === 1 ? report.teams[0]! : 'your teams');
  },
};
