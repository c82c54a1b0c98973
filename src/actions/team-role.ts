import type { Deps } from '../deps.js';
import { Refused } from '../domain/audit-outcome.js';
import { BurnrateError } from '../domain/errors.js';
import { hasRole, rolesOf } from '../domain/roles.js';
import { groupsOf } from '../ports/people-directory.js';

/** Refuses (audited by the pipeline) anyone but the team's owners, approvers and admins: "Only owners and approvers of ml can <what>." */
export function requireOwnerOrApprover(deps: Pick<Deps, 'config' | 'chat'>, userId: string, team: string, what: string): void {
  if (hasRole(rolesOf(deps.config, userId, groupsOf(deps)), team, ['owner', 'approver'])) return;
  throw new Refused(
    new BurnrateError('burnrate_forbidden', `Only owners and approvers of ${team} can ${what}.`, 'Ask one of them, or an admin.'),
  );
}
