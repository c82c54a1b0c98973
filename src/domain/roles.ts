import type { Team } from './team.js';

export type TeamRole = 'owner' | 'approver';

/** Who a chat user is to burnrate: admin or not, and their role in each team they belong to. */
export interface Roles {
  userId: string;
  admin: boolean;
  teams: { id: string; roles: TeamRole[] }[];
}

/** What roles are read from: burnrate.yml's admins and teams (the validated config has these fields). */
export interface Membership {
  admins: readonly string[];
  teams: readonly Team[];
}

export function rolesOf(config: Membership, userId: string): Roles {
  return {
    userId,
    admin: config.admins.includes(userId),
    teams: config.teams
      .map((t) => ({
        id: t.id,
        roles: [...(t.owners.includes(userId) ? ['owner' as const] : []), ...(t.approvers.includes(userId) ? ['approver' as const] : [])],
      }))
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
