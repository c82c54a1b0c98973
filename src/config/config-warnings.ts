import type { Config } from './schema.js';
import { spotApproverRoles } from '../checks/recommend/recommend-policy.js';

/**
 * What a valid burnrate.yml still gets wrong in practice, said by `config validate`: a team that
 * can never give a spot migration above spot.secondApproverAbove its two different approvers (one
 * person listed, no group), so only an admin could finish it.
 */
export function configWarnings(config: Config): string[] {
  const roles = spotApproverRoles(config.spot);
  const fix = config.spot.ownersApprove
    ? 'list a second approver or owner (a user id or a group)'
    : 'list a second approver, or set spot.ownersApprove: true so its owners count';
  return config.teams.flatMap((team) => {
    const entries = new Set(roles.flatMap((role) => (role === 'owner' ? team.owners : team.approvers)));
    // A group (a handle, a Slack S… id, an Entra group id) may hold several people: only entries known to be one person count.
    const groupLike = [...entries].some((ref) => ref.startsWith('@') || /^S[A-Z0-9]{8,}$/.test(ref) || /^[0-9a-f]{8}-/i.test(ref));
    if (groupLike || entries.size >= 2) return [];
    return [
      `teams.${team.id}: ${entries.size === 0 ? 'nobody' : 'one person'} can approve a spot migration, so one saving more than ${config.spot.secondApproverAbove} a month (spot.secondApproverAbove) waits for an admin: ${fix}.`,
    ];
  });
}
