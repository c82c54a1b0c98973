import { alreadyAnswered, answerAnomaly } from '../src/actions/anomaly-answer.js';
import { ACTION_IDS } from '../src/domain/action-ids.js';
import type { CommandSpec } from './command.js';
import { badArguments } from './usage.js';

/** `/burnrate anomalies expected <id> <reason>`: Expected with a reason, which a button cannot ask for. */
export const anomalyExpectedCommand: CommandSpec = {
  verb: 'anomalies expected',
  // The alert's Expected button is the usual way; the typed verb adds the reason.
  menu: false,
  usage: '/burnrate anomalies expected <anomaly> [reason]',
  example: '/burnrate anomalies expected anomaly:llm-training:2026-11-08 planned launch of the 70B run',
  summary: 'answer an anomaly Expected, with why (owners, approvers)',
  async run(ctx, args) {
    const [findingId, ...reason] = args;
    if (!findingId?.startsWith('anomaly:')) throw badArguments(this, 'expected an anomaly id (anomaly:<team>:<first day>) first');
    const { answer, first, finding } = await answerAnomaly(ctx.deps, ctx.actor, ACTION_IDS.anomalyExpected, {
      findingId,
      verdict: 'expected',
      reason: reason.join(' '),
    });
    const text = first
      ? `The spend anomaly of **${finding.team}** from ${finding.started} is answered Expected${answer.reason ? ` (${answer.reason})` : ''}: a rise of up to ${answer.accepted!.delta.toFixed(2)} ${finding.currency} a day in ${answer.accepted!.dimension} ${answer.accepted!.key} is taken as expected from now on.`
      : alreadyAnswered(answer);
    return { summary: text.replace(/\*\*/g, ''), blocks: [{ type: 'text', text }] };
  },
};
