import { loadRecommendations } from '../src/snapshots/current-recommendations.js';
import { recommendationList } from '../templates/recommendation-list.js';
import type { CommandSpec } from './command.js';
import { notInAnyTeam, resolveTeamId } from './team-arg.js';
import { badArguments } from './usage.js';

export const recommendCommand: CommandSpec = {
  verb: 'recommend',
  usage: '/burnrate recommend [team]',
  example: '/burnrate recommend ml-research',
  summary: 'right-size and spot recommendations, with the monthly saving',
  async run(ctx, args) {
    if (args.length > 1) throw badArguments(this, `expected at most one team, got "${args.join(' ')}"`);
    if (ctx.visibleTeams.length === 0) throw notInAnyTeam(ctx.actor.userId);
    const teams = args[0] ? [resolveTeamId(ctx.deps.config, args[0], ctx.visibleTeams)] : ctx.visibleTeams;
    const { recommendations, unavailable } = await loadRecommendations(ctx.deps);
    return recommendationList(
      recommendations.filter((r) => teams.includes(r.team)),
      teams.length === 1 ? teams[0]! : 'your teams',
      unavailable,
    );
  },
};
