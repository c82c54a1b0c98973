import { monthOf, toDay } from '../src/domain/period.js';
import { personOf } from '../src/ports/people-directory.js';
import { loadSavingsLedger } from '../src/snapshots/savings-ledger.js';
import { savingsLedgerMessage } from '../templates/savings-ledger.js';
import type { CommandSpec } from './command.js';
import { notInAnyTeam, resolveTeamId } from './team-arg.js';
import { badArguments } from './usage.js';

export const savingsCommand: CommandSpec = {
  verb: 'savings',
  usage: '/burnrate savings [team] [YYYY-MM]',
  example: '/burnrate savings ml-research',
  summary: "what burnrate's actions saved this month, confirmed by the bill",
  async run(ctx, args) {
    if (ctx.visibleTeams.length === 0) throw notInAnyTeam(ctx.actor.userId);
    const month = args.find((a) => /^\d{4}-(0[1-9]|1[0-2])$/.test(a));
    const others = args.filter((a) => a !== month);
    if (args.length > 2 || others.length > 1)
      throw badArguments(this, `expected a team and a month (YYYY-MM) at most, got "${args.join(' ')}"`);
    const typed = others[0];
    const teams = typed ? [resolveTeamId(ctx.deps.config, typed, ctx.visibleTeams)] : ctx.visibleTeams;
    // The same ledger the CLI, the review and App Home read: one figure, one read model.
    const ledger = await loadSavingsLedger(ctx.deps, monthOf(month ? `${month}-01` : toDay(ctx.now)), teams);
    const scope = teams.length === 1 ? teams[0]! : ctx.roles.admin && !typed ? 'every team' : 'your teams';
    return savingsLedgerMessage(ledger, scope, (userId) => personOf(ctx.deps, userId));
  },
};
