import { ANSWER_LABELS, answersFor, type TrackedReviewLine } from '../src/domain/review.js';
import { formatMoney } from '../src/domain/money.js';
import { personIn, type Block, type Mention, type Message } from './message.js';
import { spotApproveButton, type SpotButtonOptions } from './recommendation.js';
import { ACTION_IDS } from '../src/domain/action-ids.js';

/** Action ids of a review line; handlers in src/actions/review-*.ts. */
export const REVIEW_ACTIONS = { answer: ACTION_IDS.reviewAnswer, owner: ACTION_IDS.reviewOwner } as const;

export interface ReviewLineData {
  line: TrackedReviewLine;
  currency: string;
  /** The team's people (user ids), for the owner picker. */
  people: readonly string[];
  /** A user id as the message names them (see personOf): the picker, the owner and who answered; by id without. */
  person?: (userId: string) => Mention;
  /** For the Approve spot migration button of a line with a spot recommendation. */
  spot: SpotButtonOptions;
  /** The line's instance is moved to spot (or being moved): the Approve button is gone. */
  spotMigrated?: boolean;
}

/** One cost line in the review thread, with its answer buttons and owner picker, and what was answered. */
export function reviewLine(data: ReviewLineData): Message {
  const { line } = data;
  const money = (n: number) => formatMoney(n, data.currency);
  const person = data.person ?? ((userId: string): Mention => ({ id: null, name: userId, group: false }));
  const named = (userId: string | null) => personIn(userId ? person(userId) : { id: null, name: 'someone', group: false });
  const what = [line.instanceType, line.workload, line.service].filter(Boolean).join(' · ');
  const blocks: Block[] = [{ type: 'text', text: `**#${line.rank} ${line.label}**: ${money(line.cost)} last month\n${what}` }];
  for (const r of line.recommendations) {
    if (r.kind === 'spot' && line.spotSaving !== null) {
      // One spot figure per instance: the month's, as the waste report has it, not a second estimate.
      blocks.push({
        type: 'context',
        text: `Spot (${r.current.instanceType} on spot): ${r.evidence[0] ?? ''} ${spotText(line.spotSaving, money)}`,
      });
    } else {
      const change = r.kind === 'spot' ? `Spot (${r.current.instanceType} on spot)` : `Right-size to ${r.proposed.instanceType}`;
      blocks.push({ type: 'context', text: `${change}: ${r.evidence.join(' ')} Saves about ${money(r.monthlySaving)} a month.` });
    }
    if (r.blocker) blocks.push({ type: 'context', text: `Not ready for spot yet: ${r.blocker}` });
  }
  if (line.spotSaving !== null && !line.recommendations.some((r) => r.kind === 'spot'))
    blocks.push({ type: 'context', text: spotText(line.spotSaving, money) });
  if (line.answer)
    blocks.push({
      type: 'context',
      text: `**${ANSWER_LABELS[line.answer]}**: answered by ${named(line.answeredBy)} at ${stamp(line.answeredAt)}`,
    });
  if (line.owner)
    blocks.push({ type: 'context', text: `Owner: ${named(line.owner)} (set by ${named(line.ownerBy)} at ${stamp(line.ownerAt)})` });
  blocks.push({
    type: 'actions',
    buttons: answersFor(line).map((answer) => ({
      action: `${REVIEW_ACTIONS.answer}:${answer}`,
      label: ANSWER_LABELS[answer],
      value: JSON.stringify({ line: line.id, answer }),
      ...(line.answer === answer ? { style: 'primary' as const } : {}),
    })),
    select: {
      action: REVIEW_ACTIONS.owner,
      placeholder: 'Owner',
      options: data.people.map((id) => ({ label: person(id).name, value: JSON.stringify({ line: line.id, owner: id }) })),
      ...(line.owner ? { initial: JSON.stringify({ line: line.id, owner: line.owner }) } : {}),
    },
  });
  // The spot recommendation's own button, apart from the answers: it acts on the cloud, they record a decision.
  const spot = line.recommendations.find((r) => r.kind === 'spot');
  if (spot && !spot.blocker && !data.spotMigrated) blocks.push({ type: 'actions', buttons: [spotApproveButton(spot, data.spot, line.id)] });
  if (spot && data.spotMigrated)
    blocks.push({ type: 'context', text: 'Moved to spot: see the thread for who approved it and Revert to on-demand.' });
  const status = line.answer ? ` (${ANSWER_LABELS[line.answer]})` : '';
  return { summary: `#${line.rank} ${line.label}: ${money(line.cost)}${status}`, blocks };
}

/** The month's spot figure of a line; its basis (the waste diagnosis's) is `/burnrate waste`'s to explain. */
function spotText(saving: number, money: (n: number) => string): string {
  return `On spot this line would have cost about ${money(saving)} less this month.`;
}

function stamp(at: Date | null): string {
  return at ? `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC` : 'an unknown time';
}
