import { BurnrateError } from '../domain/errors.js';
import { errorMessage } from '../../templates/error-message.js';
import { REVIEW_ACTIONS } from '../../templates/review-line.js';
import { teamPeople } from '../jobs/review/review-people.js';
import type { ActionSpec } from './action.js';
import { authorizeLineAction, currentLineMessage } from './review-line-action.js';

/** The owner picker of a review line: one of the team's people, recorded with who chose and when. */
export const reviewOwnerAction: ActionSpec = {
  id: REVIEW_ACTIONS.owner,
  permissions: [],
  async run(deps, interaction) {
    const { payload, line, audit } = await authorizeLineAction(deps, interaction, this.id);
    const team = deps.config.teams.find((t) => t.id === line.team);
    // The value is untrusted: only someone of the team may be named owner.
    if (!payload.owner || !team || !teamPeople(team).includes(payload.owner)) {
      await deps.store.audit.record({ ...audit, result: 'refused', detail: `owner ${payload.owner ?? '(none)'} not in the team` });
      throw new BurnrateError('burnrate_owner_invalid', `${payload.owner ?? 'Nobody'} is not an owner or approver of ${line.team}.`, 'Pick one of the team’s people from the list.');
    }
    const { changed, line: updated } = await deps.store.reviews.setOwner(line.id, payload.owner, interaction.actor.userId, deps.clock());
    await deps.store.audit.record({ ...audit, result: changed ? 'ok' : 'duplicate', detail: `owner ${payload.owner}` });
    if (!changed) {
      await interaction.reply.private(errorMessage(`${payload.owner} already owns this line.`));
      return;
    }
    await interaction.reply.update(await currentLineMessage(deps, updated));
  },
};
