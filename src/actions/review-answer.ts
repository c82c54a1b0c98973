import { BurnrateError } from '../domain/errors.js';
import { ANSWER_LABELS } from '../domain/review.js';
import { errorMessage } from '../../templates/error-message.js';
import { REVIEW_ACTIONS } from '../../templates/review-line.js';
import type { ActionSpec } from './action.js';
import { authorizeLineAction, currentLineMessage } from './review-line-action.js';

/**
 * Still needed / Right-size / Move to spot / Not ours on a review line: recorded with who and
 * when, the line's message updated to show it. A later answer replaces an earlier one (people
 * change their minds during the month); the same answer again changes nothing.
 */
export const reviewAnswerAction: ActionSpec = {
  id: REVIEW_ACTIONS.answer,
  permissions: [],
  async run(deps, interaction) {
    const { payload, line, audit } = await authorizeLineAction(deps, interaction, this.id);
    if (!payload.answer) throw new BurnrateError('burnrate_payload_invalid', 'This button does not say which answer it gives.', 'Run `/burnrate review` for a fresh view.');
    const { changed, line: updated } = await deps.store.reviews.answer(line.id, payload.answer, interaction.actor.userId, deps.clock());
    await deps.store.audit.record({ ...audit, result: changed ? 'ok' : 'duplicate', detail: payload.answer });
    if (!changed) {
      await interaction.reply.private(errorMessage(`Already answered "${ANSWER_LABELS[payload.answer]}" by ${updated.answeredBy}.`));
      return;
    }
    await interaction.reply.update(await currentLineMessage(deps, updated));
  },
};
