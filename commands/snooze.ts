import { snoozeFinding } from '../src/actions/snooze-finding.js';
import type { CommandSpec } from './command.js';
import { badArguments } from './usage.js';

export const snoozeCommand: CommandSpec = {
  verb: 'snooze',
  // Every alert has a Snooze menu of its own; the typed verb takes an alert's id.
  menu: false,
  usage: '/burnrate snooze <finding> <24h|7d|2w|period>',
  example: '/burnrate snooze budget.forecast:ml-research:2026-11:100 7d',
  summary: 'silence an alert for a while (owners, approvers)',
  async run(ctx, args) {
    const [findingId, duration, ...rest] = args;
    if (!findingId || !duration || rest.length > 0) throw badArguments(this, 'expected a finding id and a duration');
    const { finding, until } = await snoozeFinding(ctx.deps, ctx.actor, findingId, duration);
    const text = `Alerts of **${finding.team ?? 'no team'}** for ${finding.label} are snoozed until ${until.toISOString().slice(0, 16).replace('T', ' ')} UTC.`;
    return { summary: text.replace(/\*\*/g, ''), blocks: [{ type: 'text', text }] };
  },
};
