import { ANSWER_LABELS, type TrackedReviewLine } from '../src/domain/review.js';
import { formatMoney } from '../src/domain/money.js';
import { monthName } from './freshness.js';
import { personIn, type Mention, type Message } from './message.js';

/** The one reminder in a review thread: which lines nobody answered yet. */
export function reviewReminder(data: {
  teamName: string;
  month: string;
  unanswered: readonly TrackedReviewLine[];
  /** The team's owners and approvers, pinged. */
  people: readonly Mention[];
}): Message {
  const text = `${data.unanswered.length} cost line${data.unanswered.length === 1 ? '' : 's'} of the ${monthName(data.month)} review still need an answer: ${data.unanswered.map((l) => `#${l.rank} ${l.label}`).join(', ')}.`;
  return {
    summary: `Reminder: ${text}`,
    blocks: [
      { type: 'text', text: `**Reminder**: ${text}` },
      {
        type: 'context',
        text: `${data.people.length > 0 ? `${data.people.map(personIn).join(', ')}: ` : ''}answer with the buttons on each line above. This is the only reminder.`,
      },
    ],
  };
}

export interface ReviewDecision {
  line: TrackedReviewLine;
  /** Estimated monthly saving of the decision; null when not estimated. */
  saving: number | null;
}

/** Posted in the thread when the review's month closes: the decisions and what they save. */
export function reviewClose(data: {
  teamName: string;
  month: string;
  currency: string;
  decisions: readonly ReviewDecision[];
  /** A user id as the message names them (see personOf); by id without. */
  person?: (userId: string) => Mention;
}): Message {
  const named = (userId: string | null) =>
    userId === null ? '—' : personIn(data.person?.(userId) ?? { id: null, name: userId, group: false });
  const money = (n: number) => formatMoney(n, data.currency);
  const answered = data.decisions.filter((d) => d.line.answer !== null);
  const saving = data.decisions.reduce((sum, d) => sum + (d.saving ?? 0), 0);
  const headline = `${data.teamName}: ${monthName(data.month)} review closed, ${answered.length} of ${data.decisions.length} lines decided, about ${money(saving)} a month saved`;
  return {
    summary: headline,
    blocks: [
      { type: 'header', text: `${monthName(data.month)} review: decisions` },
      {
        type: 'table',
        columns: [
          { label: '#', align: 'right' },
          { label: 'Line' },
          { label: 'Cost', align: 'right' },
          { label: 'Decision' },
          { label: 'Owner' },
          { label: 'Saving / month', align: 'right' },
        ],
        rows: data.decisions.map(({ line, saving }) => [
          String(line.rank),
          line.label,
          money(line.cost),
          line.answer ? `${ANSWER_LABELS[line.answer]} (${named(line.answeredBy)})` : 'no answer',
          named(line.owner),
          line.answer === null ? '—' : saving === null ? 'not estimated' : money(saving),
        ]),
      },
      { type: 'text', text: `Estimated monthly savings: **${money(saving)}**.` },
      {
        type: 'context',
        text: 'Savings: move to spot at the catalog spot discount on last month’s cost; right-size where a recommendation gives the cheaper type; still needed and not ours save nothing.',
      },
    ],
  };
}
