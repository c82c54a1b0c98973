import { runGpuCheck } from '../src/jobs/gpu-check.js';
import { idleStatus } from '../templates/idle-status.js';
import type { CommandSpec } from './command.js';
import { notInAnyTeam, resolveTeamId } from './team-arg.js';
import { badArguments } from './usage.js';

export const idleCommand: CommandSpec = {
  verb: 'idle',
  usage: '/burnrate idle [team]',
  example: '/burnrate idle ml-research',
  summary: 'idle GPUs right now, with idle time and cost',
  async run(ctx, args) {
    if (args.length > 1) throw badArguments(this, `expected at most one team, got "${args.join(' ')}"`);
    if (ctx.visibleTeams.length === 0) throw notInAnyTeam(ctx.actor.userId);
    const teams = args[0] ? [resolveTeamId(ctx.deps.config, args[0], ctx.visibleTeams)] : ctx.visibleTeams;
    const result = await runGpuCheck(ctx.deps, { dryRun: true, teams });
    return idleStatus(
      result.findings.filter((f) => f.state !== 'resolved'),
      teams.length === 1 ? teams[0]! : 'your teams',
      result.noMetrics,
      result.unavailable,
    );
  },
};
