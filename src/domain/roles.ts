import type { Team } from './team.js';

export type TeamRole = 'owner' | 'approver';

/** Who a chat user is to burnrate: admin or not, and their role in each team they belong to. */
export interface Roles {
  userId: string;
  admin: boolean;
  /** The burnrate.yml entries that made each role: the user's own id, or a group they are in. */
  adminFrom?: string[];
  teams: { id: string; roles: TeamRole[]; from: string[] }[];
}

/** The members of a group named in burnrate.yml (`@handle` or a group id); undefined for an entry that is no known group. */
export type GroupMembers = (ref: string) => readonly string[] | undefined;

/** The entries of a role list that name the user: their id, or groups holding them. */
function entriesFor(list: readonly string[], userId: string, groups: GroupMembers): string[] {
  return list.filter((ref) => ref === userId || (groups(ref)?.includes(userId) ?? false));
}

/** What roles are read from: burnrate.yml's admins and teams (the validated config has these fields). */
export interface Membership {
  admins: readonly string[];
  teams: readonly Team[];
}

export function rolesOf(config: Membership, userId: string, groups: GroupMembers = () => undefined): Roles {
  const adminFrom = entriesFor(config.admins, userId, groups);
  return {
    userId,
    admin: adminFrom.length > 0,
    ...(adminFrom.length > 0 ? { adminFrom } : {}),
    teams: config.teams
      .map((t) => {
        const owner = entriesFor(t.owners, userId, groups);
        const approver = entriesFor(t.approvers, userId, groups);
        return {
          id: t.id,
          roles: [...(owner.length ? ['owner' as const] : []), ...(approver.length ? ['approver' as const] : [])],
          from: [...new Set([...owner, ...approver])],
        };
      })
      .filter((t) => t.roles.length > 0),
  };
}

/** Teams whose spend a user may see: their own, or every team for admins. */
export function visibleTeams(config: Membership, roles: Roles): string[] {
  return roles.admin ? config.teams.map((t) => t.id) : roles.teams.map((t) => t.id);
}

/** Whether a user holds one of `allowed` roles in a team; admins hold every role. */
export function hasRole(roles: Roles, team: string, allowed: readonly TeamRole[]): boolean {
  return roles.admin || roles.teams.some((t) => t.id === team && t.roles.some((r) => allowed.includes(r)));
}
