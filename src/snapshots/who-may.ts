import type { Config } from '../config/schema.js';
import type { TeamRole } from '../domain/roles.js';
import { personText, type PeopleSources } from '../ports/people-directory.js';

/**
 * The people holding `roles` in `team`, as burnrate.yml lists them (a group by its handle), named
 * in message text (pinged where the platform can): what refusals and confirmations say instead of
 * "ask one of them". Empty for no team or a team that lists nobody.
 */
export function whoMay(deps: PeopleSources & { config: Pick<Config, 'teams'> }, team: string | null, roles: readonly TeamRole[]): string[] {
  const config = team === null ? undefined : deps.config.teams.find((t) => t.id === team);
  if (!config) return [];
  return [...new Set(roles.flatMap((role) => (role === 'owner' ? config.owners : config.approvers)))].map((ref) => personText(deps, ref));
}
