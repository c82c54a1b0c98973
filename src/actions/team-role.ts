import type { Deps } from '../deps.js';
import { Refused } from '../domain/audit-outcome.js';
import { BurnrateError } from '../domain/errors.js';
import { hasRole, rolesOf, type TeamRole } from '../domain/roles.js';
import { groupsOf } from '../ports/people-directory.js';
import { whoMay } from '../snapshots/who-may.js';
import { oneOf } from '../domain/one-of.js';

/** Refuses (audited by the pipeline) anyone but the team's owners, approvers and admins: "Only owners and approvers of ml can <what>." */
export function requireOwnerOrApprover(deps: Pick<Deps, 'config' | 'chat'>, userId: string, team: string | null, what: string): void {
  const roles = rolesOf(deps.config, userId, groupsOf(deps));
  if (team === null ? roles.admin : hasRole(roles, team, ['owner', 'approver'])) return;
  throw new Refused(
    new BurnrateError(
      'burnrate_forbidden',
      team === null ? `Only admins can ${what}: it belongs to no team.` : `Only owners and approvers of ${team} can ${what}.`,
      askWhom(deps, team, ['owner', 'approver']),
    ),
  );
}

/** Who to ask, named (pinged where the platform can): "Ask Carol Chen, Dan Novak or an admin." */
export function askWhom(deps: Parameters<typeof whoMay>[0], team: string | null, roles: readonly TeamRole[]): string {
  return `Ask ${oneOf([...whoMay(deps, team, roles), 'an admin'])}.`;
}
