import { budgetStatus } from '../src/checks/budget/budget-status.js';
import { loadBudgetSnapshot } from '../src/snapshots/budget-snapshot.js';
import { budgetListing } from '../src/snapshots/budget-listing.js';
import { budgetStatusMessage, withCloudBudgets } from '../templates/budget-status.js';
import type { CommandSpec } from './command.js';
import { notInAnyTeam, resolveTeamId } from './team-arg.js';
import { badArguments } from './usage.js';

export const budgetCommand: CommandSpec = {
  verb: 'budget',
  usage: '/burnrate budget [team]',
  example: '/burnrate budget ml-research',
  summary: 'spend against budget, with the forecast',
  async run(ctx, args) {
    if (args.length > 1) throw badArguments(this, `expected at most one team, got "${args.join(' ')}"`);
    if (ctx.visibleTeams.length === 0) throw notInAnyTeam(ctx.actor.userId);
    const ids = args[0] ? [resolveTeamId(ctx.deps.config, args[0], ctx.visibleTeams)] : ctx.visibleTeams;
    const teams = ctx.deps.config.teams.filter((t) => ids.includes(t.id));
    const snapshot = await loadBudgetSnapshot(ctx.deps, teams, ctx.now);
    const open = new Map<string, number>();
    for (const f of await ctx.deps.store.findings.listOpen()) open.set(f.team, (open.get(f.team) ?? 0) + 1);
    const statuses = budgetStatus(snapshot, { lookbackDays: ctx.deps.config.forecast.lookbackDays }, ctx.now);
    const message = budgetStatusMessage(statuses, open, snapshot.dataThrough, snapshot.stale);
    // Budgets kept in the AWS or Google console for these teams, beside burnrate's own.
    const cloud = budgetListing(snapshot, statuses, { teams: ids, origins: ['aws', 'gcp'] }).budgets;
    return cloud.length === 0 ? message : withCloudBudgets(message, cloud);
  },
};
