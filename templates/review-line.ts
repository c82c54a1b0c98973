import { ANSWER_LABELS, REVIEW_ANSWERS, type LineRecommendation, type TrackedReviewLine } from '../src/domain/review.js';
import { formatMoney } from '../src/domain/money.js';
import type { Block, Message } from './message.js';

/** Action ids of a review line; handlers in src/actions/review-*.ts. */
export const REVIEW_ACTIONS = { answer: 'review.answer', owner: 'review.owner' } as const;

export interface ReviewLineData {
  line: TrackedReviewLine;
  currency: string;
  /** The team's people, for the owner picker. */
  people: readonly string[];
  recommendations: readonly LineRecommendation[];
}

/** One cost line in the review thread, with its answer buttons and owner picker, and what was answered. */
export function reviewLine(data: ReviewLineData): Message {
  const { line } = data;
  const money = (n: number) => formatMoney(n, data.currency);
  const what = [line.instanceType, line.workload, line.service].filter(Boolean).join(' · ');
  const blocks: Block[] = [{ type: 'text', text: `**#${line.rank} ${line.label}**: ${money(line.cost)} last month\n${what}` }];
  for (const r of data.recommendations) blocks.push({ type: 'context', text: `${r.kind === 'spot' ? 'Spot' : 'Right-size'}: ${r.evidence} (saves about ${money(r.monthlySaving)} a month)` });
  if (line.spotSaving !== null && !data.recommendations.some((r) => r.kind === 'spot')) blocks.push({ type: 'context', text: `On spot this line would have cost about ${money(line.spotSaving)} less (catalog spot price).` });
  if (line.answer) blocks.push({ type: 'context', text: `**${ANSWER_LABELS[line.answer]}**: answered by ${line.answeredBy} at ${stamp(line.answeredAt)}` });
  if (line.owner) blocks.push({ type: 'context', text: `Owner: **${line.owner}** (set by ${line.ownerBy} at ${stamp(line.ownerAt)})` });
  blocks.push({
    type: 'actions',
    buttons: REVIEW_ANSWERS.map((answer) => ({
      action: `${REVIEW_ACTIONS.answer}:${answer}`,
      label: ANSWER_LABELS[answer],
      value: JSON.stringify({ line: line.id, answer }),
      ...(line.answer === answer ? { style: 'primary' as const } : {}),
    })),
    select: {
      action: REVIEW_ACTIONS.owner,
      placeholder: 'Owner',
      options: data.people.map((person) => ({ label: person, value: JSON.stringify({ line: line.id, owner: person }) })),
      ...(line.owner ? { initial: JSON.stringify({ line: line.id, owner: line.owner }) } : {}),
    },
  });
  const status = line.answer ? ` (${ANSWER_LABELS[line.answer]})` : '';
  return { summary: `#${line.rank} ${line.label}: ${money(line.cost)}${status}`, blocks };
}

function stamp(at: Date | null): string {
  return at ? `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC` : 'an unknown time';
}
