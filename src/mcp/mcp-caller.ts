import type { CommandContext } from '../../commands/command.js';
import { notInAnyTeam, resolveTeamId } from '../../commands/team-arg.js';
import type { Deps } from '../deps.js';
import { BurnrateError } from '../domain/errors.js';
import { rolesOf, visibleTeams } from '../domain/roles.js';
import { groupsOf } from '../ports/people-directory.js';

/** The platform an assistant's calls are audited under. */
export const MCP_PLATFORM = 'mcp';

/**
 * Who an MCP client acts as: the user its token names, with the roles and teams that user has in
 * chat (burnrate.yml's admins, owners and approvers, groups included), read afresh for every call so
 * a change of roles applies at once. The same context a slash command runs with.
 */
export function callerOf(deps: Deps, userId: string): CommandContext {
  const roles = rolesOf(deps.config, userId, groupsOf(deps));
  return { deps, actor: { platform: MCP_PLATFORM, userId }, roles, visibleTeams: visibleTeams(deps.config, roles), now: deps.clock() };
}

/** The teams a call is about: the one asked for (resolved, and refused outside the user's teams), or all the user sees. */
export function teamsInScope(caller: CommandContext, resolved: string | undefined): string[] {
  if (caller.visibleTeams.length === 0) throw notInAnyTeam(caller.actor.userId);
  return resolved ? [resolved] : caller.visibleTeams;
}

/**
 * What a tool's `team` argument asks about: the team (its id, name or match value resolved within
 * the user's teams), the teams covered, and whether the answer is the CLI's whole one (an admin
 * asking for no team in particular: what belongs to no team included).
 */
export function askedScope(
  caller: CommandContext,
  teamArg: string | undefined,
): { team: string | undefined; teams: string[]; whole: boolean } {
  const team = teamArg === undefined ? undefined : resolveTeamId(caller.deps.config, teamArg, caller.visibleTeams);
  const teams = teamsInScope(caller, team);
  return { team, teams, whole: caller.roles.admin && !team };
}

/** Refuses a user who could see nothing: an assistant, or a token, for them would answer nothing. */
export function requireSomeRole(deps: Deps, userId: string): void {
  const caller = callerOf(deps, userId);
  if (!caller.roles.admin && caller.visibleTeams.length === 0)
    throw new BurnrateError(
      'burnrate_mcp_user_unknown',
      `${userId} is not an admin, owner or approver of any team in burnrate.yml`,
      'Give the id of someone with a role, or add them to a team.',
    );
}
