import { formatMoney } from '../src/domain/money.js';
import { hasRole } from '../src/domain/roles.js';
import { BurnrateError } from '../src/errors.js';
import type { Message } from '../templates/message.js';
import type { CommandSpec } from './command.js';
import { resolveTeamId } from './team-arg.js';
import { badArguments } from './usage.js';

export const budgetSetCommand: CommandSpec = {
  verb: 'budget set',
  usage: '/burnrate budget set <team> <amount> [monthly|weekly]',
  example: '/burnrate budget set ml-research 50k monthly',
  summary: "change a team's budget (approvers)",
  async run(ctx, args) {
    const [teamArg, amountArg, cadenceArg = 'monthly', ...rest] = args;
    if (!teamArg || !amountArg || rest.length > 0) throw badArguments(this, 'expected a team and an amount');
    const cadence = cadenceArg.toLowerCase();
    if (cadence !== 'monthly' && cadence !== 'weekly') throw badArguments(this, `the period must be monthly or weekly, got "${cadenceArg}"`);
    const amount = parseAmount(amountArg);
    if (amount === null) throw badArguments(this, `"${amountArg}" is not an amount: write 50000, 50k or 1.2m`);
    // Unknown teams are named as unknown to everyone; existing teams are checked for the role below.
    const team = resolveTeamId(ctx.deps.config, teamArg);
    const audit = { at: ctx.now, platform: ctx.actor.platform, userId: ctx.actor.userId, action: 'budget set', subject: team, detail: `${cadence} ${amount}` };
    if (!hasRole(ctx.roles, team, ['approver'])) {
      await ctx.deps.store.audit.record({ ...audit, result: 'refused' });
      throw new BurnrateError('burnrate_forbidden', `Only approvers of ${team} can change its budget.`, 'Ask one of its approvers, or an admin.');
    }
    await ctx.deps.store.budgets.set({ team, cadence, amount, thresholds: null, byUser: ctx.actor.userId, at: ctx.now });
    await ctx.deps.store.audit.record({ ...audit, result: 'ok' });
    const currency = ctx.deps.config.teams.find((t) => t.id === team)?.budget?.currency ?? 'USD';
    return confirmation(`The ${cadence} budget of **${team}** is now **${formatMoney(amount, currency)}**. The next budget check uses it.`);
  },
};

/** 50000, 50,000, 50k, 1.5m: how people write budgets. */
export function parseAmount(text: string): number | null {
  const match = /^\$?(\d+(?:[.,]\d+)*)([km])?$/i.exec(text.trim());
  if (!match) return null;
  const digits = match[1]!.replace(/,(?=\d{3}(\D|$))/g, '');
  const value = Number(digits) * (match[2]?.toLowerCase() === 'k' ? 1e3 : match[2]?.toLowerCase() === 'm' ? 1e6 : 1);
  return Number.isFinite(value) && value > 0 ? value : null;
}

function confirmation(text: string): Message {
  return { summary: text.replace(/\*\*/g, ''), blocks: [{ type: 'text', text }] };
}
