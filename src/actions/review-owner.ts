import { BurnrateError } from '../domain/errors.js';
import type { TrackedReviewLine } from '../domain/review.js';
import { ACTION_IDS } from '../domain/action-ids.js';
import { Refused } from '../domain/audit-outcome.js';
import { privateReply } from '../../templates/private-reply.js';
import { teamPeople } from '../jobs/review/review-people.js';
import { defineAction } from './action.js';
import { authorizeLineAction, currentLineMessage, lineSubject, readLinePayload } from './review-line-action.js';

/** The owner picker of a review line: one of the team's people, recorded with who chose and when. */
export const reviewOwnerAction = defineAction({
  id: ACTION_IDS.reviewOwner,
  permissions: [],
  sideEffects: 'records',
  parse: readLinePayload,
  subject: ({ line }) => lineSubject(line),
  async authorize({ deps, interaction }, { payload, line }) {
    authorizeLineAction(deps, interaction.actor, line);
    const team = deps.config.teams.find((t) => t.id === line.team);
    // The value is untrusted: only someone of the team may be named owner.
    if (!payload.owner || !team || !teamPeople(team).includes(payload.owner))
      throw new Refused(
        new BurnrateError(
          'burnrate_owner_invalid',
          `${payload.owner ?? 'Nobody'} is not an owner or approver of ${line.team}.`,
          'Pick one of the team’s people from the list.',
        ),
        `owner ${payload.owner ?? '(none)'} not in the team`,
      );
  },
  async run({ deps, interaction }, { payload, line }) {
    const owner = payload.owner!;
    const { changed, line: updated } = await deps.store.reviews.setOwner(line.id, owner, interaction.actor.userId, deps.clock());
    return {
      audit: { result: changed ? 'ok' : 'duplicate', detail: `owner ${owner}` },
      value: { changed, updated } as { changed: boolean; updated: TrackedReviewLine },
    };
  },
  async answer({ deps, interaction }, { payload }, { changed, updated }) {
    if (!changed) {
      await interaction.reply.private(privateReply(`${payload.owner} already owns this line.`));
      return;
    }
    await interaction.reply.update(await currentLineMessage(deps, updated));
  },
});
