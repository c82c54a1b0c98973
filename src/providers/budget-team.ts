import { UNMAPPED, UNTAGGED } from '../domain/spend.js';
import type { CloudBudget } from '../domain/cloud-budget.js';

/**
 * The team a cloud budget belongs to: its name through `teamPattern` first (the `team` group, or
 * the first group, or the whole match), then the ownership tag values in its filter when they all
 * name the same team. A budget covering several teams, or none, belongs to none.
 */
export function budgetTeam(
  name: string,
  filterTagValues: readonly string[],
  teamPattern: string | undefined,
  resolveTeam: (tag: string | null) => string,
): Pick<CloudBudget, 'team' | 'mappedBy'> {
  const known = (value: string | undefined | null): string | null => {
    if (!value) return null;
    const team = resolveTeam(value);
    return team === UNMAPPED || team === UNTAGGED ? null : team;
  };
  if (teamPattern) {
    const match = new RegExp(teamPattern).exec(name);
    const team = known(match ? (match.groups?.team ?? match[1] ?? match[0]) : null);
    if (team) return { team, mappedBy: 'name' };
  }
  const teams = new Set(filterTagValues.map(known));
  if (teams.size === 1) {
    const [team] = teams;
    if (team) return { team, mappedBy: 'filter' };
  }
  return { team: null, mappedBy: null };
}
