import { z } from 'zod';
import type { ActionInteraction } from '../ports/interaction.js';
import type { Deps } from '../deps.js';
import { hasRole, rolesOf } from '../domain/roles.js';
import { REVIEW_ANSWERS, type TrackedReviewLine } from '../domain/review.js';
import { BurnrateError } from '../domain/errors.js';
import { teamPeople } from '../jobs/review/review-people.js';
import { spotButtonOptions } from '../recommend/recommendations-for.js';
import type { AuditEntry } from '../domain/audit.js';
import { reviewLine } from '../../templates/review-line.js';
import { parseButtonValue } from './button-value.js';

const REFRESH = '/burnrate review';

const payloadSchema = z.strictObject({
  line: z.number().int().positive(),
  answer: z.enum(REVIEW_ANSWERS).optional(),
  owner: z.string().min(1).max(100).optional(),
});

/**
 * What every click on a review line does first: read the value, load the line, and check that the
 * clicker is an owner or approver of the line's team (or an admin). A refusal is audited.
 */
export async function authorizeLineAction(deps: Deps, interaction: ActionInteraction, action: string) {
  const payload = parseButtonValue(payloadSchema, interaction.value, REFRESH);
  const line = await deps.store.reviews.line(payload.line);
  if (!line) throw new BurnrateError('burnrate_review_unknown', 'This review line is no longer known to burnrate.', `It may come from another installation or a reset database; run \`${REFRESH}\` for the current review.`);
  const { actor } = interaction;
  const audit: Omit<AuditEntry, 'result'> = { at: deps.clock(), platform: actor.platform, userId: actor.userId, action, subject: `review:${line.team}:${line.month}:${line.rank}` };
  if (!hasRole(rolesOf(deps.config, actor.userId), line.team, ['owner', 'approver'])) {
    await deps.store.audit.record({ ...audit, result: 'refused', detail: 'not an owner or approver' });
    throw new BurnrateError('burnrate_forbidden', `Only owners and approvers of ${line.team} can answer its cost review.`, 'Ask one of them, or an admin.');
  }
  return { payload, line, audit };
}

/** The line's message as it should look now, with its answer and owner. */
export async function currentLineMessage(deps: Deps, line: TrackedReviewLine) {
  const team = deps.config.teams.find((t) => t.id === line.team);
  const review = await deps.store.reviews.get(line.team, line.month);
  return reviewLine({ line, currency: review?.figures.currency ?? 'USD', people: team ? teamPeople(team) : [], spot: spotButtonOptions(deps.config) });
}
