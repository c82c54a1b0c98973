import type { Config } from '../src/config/schema.js';
import { normaliseTag } from '../src/domain/ownership.js';
import { BurnrateError } from '../src/domain/errors.js';

/** Resolves what a user typed for a team (id, name or match value) to a team id they may see. */
export function resolveTeamId(config: Config, typed: string, visibleTeams?: readonly string[]): string {
  const wanted = normaliseTag(typed);
  const team = config.teams.find(
    (t) => normaliseTag(t.id) === wanted || (t.name && normaliseTag(t.name) === wanted) || t.match.some((m) => normaliseTag(m) === wanted),
  );
  const known = (visibleTeams ?? config.teams.map((t) => t.id)).join(', ') || '(no teams configured)';
  if (!team) throw new BurnrateError('burnrate_team_unknown', `unknown team "${typed}"`, `Known teams: ${known}.`);
  if (visibleTeams && !visibleTeams.includes(team.id)) {
    throw new BurnrateError('burnrate_team_forbidden', `you are not a member of team "${team.id}"`, `Your teams: ${known}.`);
  }
  return team.id;
}

/** For someone who is in no team: say so, and who can fix it. */
export function notInAnyTeam(userId: string): BurnrateError {
  return new BurnrateError(
    'burnrate_no_team',
    `You (${userId}) are not an owner or approver of any team yet.`,
    'Ask an admin to add your user id to a team in burnrate.yml.',
  );
}
