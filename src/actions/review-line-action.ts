import { askWhom } from './team-role.js';
import { groupsOf, personOf } from '../ports/people-directory.js';
import { z } from 'zod';
import type { ActionInteraction, Actor } from '../ports/interaction.js';
import type { Deps } from '../deps.js';
import { hasRole, rolesOf } from '../domain/roles.js';
import { REVIEW_ANSWERS, type TrackedReviewLine } from '../domain/review.js';
import { BurnrateError } from '../domain/errors.js';
import { teamPeople } from '../jobs/review/review-people.js';
import { spotButtonOptions } from '../snapshots/recommendations-for.js';
import { Refused } from '../domain/audit-outcome.js';
import type { AuditSubject } from './action.js';
import { reviewLine } from '../../templates/review-line.js';
import { parseButtonValue } from './button-value.js';

const REFRESH = '/burnrate review';

const payloadSchema = z.strictObject({
  line: z.number().int().positive(),
  answer: z.enum(REVIEW_ANSWERS).optional(),
  owner: z.string().min(1).max(100).optional(),
});

/** What every click on a review line reads first: the value, and the line it names. */
export async function readLinePayload(deps: Deps, interaction: ActionInteraction) {
  const payload = parseButtonValue(payloadSchema, interaction.value, REFRESH);
  const line = await deps.store.reviews.line(payload.line);
  if (!line)
    throw new BurnrateError(
      'burnrate_review_unknown',
      'This review line is no longer known to burnrate.',
      `It may come from another installation or a reset database; run \`${REFRESH}\` for the current review.`,
    );
  return { payload, line };
}

/** What every review line's audit names: the team's review of the month, and the line's rank. */
export function lineSubject(line: TrackedReviewLine): AuditSubject {
  return { subject: `review:${line.team}:${line.month}:${line.rank}` };
}

/** Owners and approvers of the line's team (and admins) may answer; a refusal is audited by the pipeline. */
export function authorizeLineAction(deps: Deps, actor: Actor, line: TrackedReviewLine): void {
  if (!hasRole(rolesOf(deps.config, actor.userId, groupsOf(deps)), line.team, ['owner', 'approver']))
    throw new Refused(
      new BurnrateError(
        'burnrate_forbidden',
        `Only owners and approvers of ${line.team} can answer its cost review.`,
        askWhom(deps, line.team, ['owner', 'approver']),
      ),
      'not an owner or approver',
    );
}

/** The line's message as it should look now, with its answer and owner. */
export async function currentLineMessage(deps: Deps, line: TrackedReviewLine) {
  const team = deps.config.teams.find((t) => t.id === line.team);
  const review = await deps.store.reviews.get(line.team, line.month);
  const spot = line.recommendations.find((r) => r.kind === 'spot');
  const migration = spot ? await deps.store.spotMigrations.active(spot.instanceId) : null;
  return reviewLine({
    line,
    currency: review?.figures.currency ?? 'USD',
    people: team ? teamPeople(team) : [],
    person: (userId) => personOf(deps, userId),
    spot: spotButtonOptions(deps),
    spotMigrated: migration?.state === 'migrated' || migration?.state === 'migrating',
  });
}
