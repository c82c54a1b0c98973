import { personText } from '../ports/people-directory.js';
import { BurnrateError } from '../domain/errors.js';
import { Refused } from '../domain/audit-outcome.js';
import { ANSWER_LABELS, answersFor, type TrackedReviewLine } from '../domain/review.js';
import { ACTION_IDS } from '../domain/action-ids.js';
import { privateReply } from '../../templates/private-reply.js';
import { defineAction } from './action.js';
import { authorizeLineAction, currentLineMessage, lineSubject, readLinePayload } from './review-line-action.js';

/**
 * Still needed / Right-size / Move to spot / Not ours on a review line: recorded with who and
 * when, the line's message updated to show it. A later answer replaces an earlier one (people
 * change their minds during the month); the same answer again changes nothing.
 */
export const reviewAnswerAction = defineAction({
  id: ACTION_IDS.reviewAnswer,
  permissions: [],
  sideEffects: 'records',
  parse: readLinePayload,
  subject: ({ line }) => lineSubject(line),
  async authorize({ deps, interaction }, { payload, line }) {
    authorizeLineAction(deps, interaction.actor, line);
    if (!payload.answer)
      throw new BurnrateError(
        'burnrate_payload_invalid',
        'This button does not say which answer it gives.',
        'Run `/burnrate review` for a fresh view.',
      );
    if (!answersFor(line).includes(payload.answer))
      throw new Refused(
        new BurnrateError(
          'burnrate_payload_invalid',
          `"${ANSWER_LABELS[payload.answer]}" does not apply to ${line.label} (${line.category}${line.pricing ? `, ${line.pricing}` : ''}).`,
          `Answer ${answersFor(line)
            .map((a) => ANSWER_LABELS[a])
            .join(', ')}, or run \`/burnrate review\` for a fresh view.`,
        ),
        `answer ${payload.answer} does not fit the line`,
      );
  },
  async run({ deps, interaction }, { payload, line }) {
    const answer = payload.answer!;
    const { changed, line: updated } = await deps.store.reviews.answer(line.id, answer, interaction.actor.userId, deps.clock());
    return {
      audit: { result: changed ? 'ok' : 'duplicate', detail: answer },
      value: { changed, updated } as { changed: boolean; updated: TrackedReviewLine },
    };
  },
  async answer({ deps, interaction }, { payload }, { changed, updated }) {
    if (!changed) {
      await interaction.reply.private(
        privateReply(`Already answered "${ANSWER_LABELS[payload.answer!]}" by ${personText(deps, updated.answeredBy ?? '')}.`),
      );
      return;
    }
    await interaction.reply.update(await currentLineMessage(deps, updated));
  },
});
