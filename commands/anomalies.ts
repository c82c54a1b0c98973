import { DEFAULT_ANOMALY_DAYS, loadAnomalyListing, MAX_ANOMALY_DAYS } from '../src/snapshots/anomaly-listing.js';
import { anomalyList } from '../templates/anomaly-list.js';
import type { CommandSpec } from './command.js';
import { notInAnyTeam, resolveTeamId } from './team-arg.js';
import { badArguments } from './usage.js';

/** "14d" or "14": a number of days. */
const DAYS = /^(\d{1,3})d?$/i;

export const anomaliesCommand: CommandSpec = {
  verb: 'anomalies',
  usage: '/burnrate anomalies [team] [days, e.g. 14d]',
  example: '/burnrate anomalies llm-training 14d',
  summary: 'spend anomalies of the last days: why each moved, and how it was answered',
  async run(ctx, args) {
    if (ctx.visibleTeams.length === 0) throw notInAnyTeam(ctx.actor.userId);
    const daysArg = args.find((a) => DAYS.test(a));
    const others = args.filter((a) => a !== daysArg);
    if (args.length > 2 || others.length > 1)
      throw badArguments(this, `expected a team and a number of days at most, got "${args.join(' ')}"`);
    const days = daysArg ? Number(DAYS.exec(daysArg)![1]) : DEFAULT_ANOMALY_DAYS;
    if (days < 1 || days > MAX_ANOMALY_DAYS) throw badArguments(this, `expected 1 to ${MAX_ANOMALY_DAYS} days, got "${daysArg}"`);
    const teams = others[0] ? [resolveTeamId(ctx.deps.config, others[0], ctx.visibleTeams)] : ctx.visibleTeams;
    const listing = await loadAnomalyListing(ctx.deps, { teams, days, now: ctx.now });
    return anomalyList({ scope: teams.length === 1 ? teams[0]! : 'your teams', days, anomalies: listing.anomalies });
  },
};
