import { digestPeriod } from '../src/checks/digest/digest-period.js';
import { addDays, weekdayOf } from '../src/domain/period.js';
import { wallClock } from '../src/domain/wall-clock.js';
import { loadDigestContext, loadTeamDigest } from '../src/snapshots/team-digest.js';
import { teamDigest } from '../templates/digest.js';
import type { CommandSpec } from './command.js';
import { notInAnyTeam, resolveTeamId } from './team-arg.js';
import { badArguments } from './usage.js';

export const digestCommand: CommandSpec = {
  verb: 'digest',
  usage: '/burnrate digest [team] [daily|weekly]',
  example: '/burnrate digest ml-research weekly',
  summary: "a preview of a team's digest: the last day or week against its budget, what moved, what is open",
  async run(ctx, args) {
    if (ctx.visibleTeams.length === 0) throw notInAnyTeam(ctx.actor.userId);
    const cadenceWord = args.find((a) => a === 'daily' || a === 'weekly');
    const others = args.filter((a) => a !== cadenceWord);
    if (args.length > 2 || others.length > 1)
      throw badArguments(this, `expected a team and daily or weekly at most, got "${args.join(' ')}"`);
    if (!others[0] && ctx.visibleTeams.length > 1)
      throw badArguments(this, `You are in several teams: name one (${ctx.visibleTeams.join(', ')}).`);
    const teamId = others[0] ? resolveTeamId(ctx.deps.config, others[0], ctx.visibleTeams) : ctx.visibleTeams[0]!;
    const team = ctx.deps.config.teams.find((t) => t.id === teamId)!;
    // The team's own cadence unless asked; a team without a digest previews the daily one.
    const cadence = cadenceWord ?? (team.digest === 'off' ? 'daily' : team.digest);
    const today = wallClock(ctx.now, team.timezone).day;
    // A weekly digest goes out on Mondays: the preview shows the last one that went (or would have).
    const sentOn = cadence === 'weekly' ? addDays(today, -((weekdayOf(today) + 6) % 7)) : today;
    const digest = digestPeriod(cadence, sentOn)!;
    const message = teamDigest(await loadTeamDigest(ctx.deps, team, digest, await loadDigestContext(ctx.deps)));
    const when =
      team.digest === 'off'
        ? 'This team gets no digest: set digest: daily or weekly on it in burnrate.yml.'
        : `The team's channel gets it ${team.digest} at ${ctx.deps.config.digest.at} (${team.timezone}).`;
    return { ...message, blocks: [...message.blocks, { type: 'context', text: `Preview, only you see it. ${when}` }] };
  },
};
