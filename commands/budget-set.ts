import { formatMoney } from '../src/domain/money.js';
import { setBudget } from '../src/actions/set-budget.js';
import { parseAmount } from '../src/domain/amount.js';
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
    if (cadence !== 'monthly' && cadence !== 'weekly')
      throw badArguments(this, `the period must be monthly or weekly, got "${cadenceArg}"`);
    const amount = parseAmount(amountArg);
    if (amount === null) throw badArguments(this, `"${amountArg}" is not an amount: write 50000, 50k or 1.2m`);
    // Unknown teams are named as unknown to everyone; setBudget checks the caller's role.
    const team = resolveTeamId(ctx.deps.config, teamArg);
    await setBudget(ctx.deps, ctx.actor, { team, cadence, amount, thresholds: null });
    const currency = ctx.deps.config.teams.find((t) => t.id === team)?.budget?.currency ?? 'USD';
    return confirmation(`The ${cadence} budget of **${team}** is now **${formatMoney(amount, currency)}**. The next budget check uses it.`);
  },
};

function confirmation(text: string): Message {
  return { summary: text.replace(/\*\*/g, ''), blocks: [{ type: 'text', text }] };
}
