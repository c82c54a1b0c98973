import type { Team } from '../../domain/team.js';
import type { ShowbackLine } from '../../domain/review.js';
import { UNMAPPED, UNTAGGED } from '../../domain/spend.js';
import { toCents } from '../idle/idle-findings.js';

/**
 * Showback: each team's direct spend plus its share of what nobody owns (untagged and unmapped
 * spend, spread in proportion to direct spend, so the lines add up to the organisation's bill).
 */
export function showback(
  totals: readonly { key: string; effective: number }[],
  teams: readonly Team[],
): { lines: ShowbackLine[]; unowned: number; total: number } {
  const byTeam = new Map(totals.map((t) => [t.key, t.effective]));
  const unowned = (byTeam.get(UNTAGGED) ?? 0) + (byTeam.get(UNMAPPED) ?? 0);
  const total = totals.reduce((sum, t) => sum + t.effective, 0);
  const direct = teams.reduce((sum, t) => sum + Math.max(0, byTeam.get(t.id) ?? 0), 0);
  const lines = teams.map((team) => {
    const own = byTeam.get(team.id) ?? 0;
    const shared = direct > 0 ? (unowned * Math.max(0, own)) / direct : 0;
    return {
      team: team.id,
      teamName: team.name ?? team.id,
      direct: toCents(own),
      shared: toCents(shared),
      total: toCents(own + shared),
      share: total > 0 ? (own + shared) / total : 0,
      budget: team.budget?.monthly ?? null,
    };
  });
  return {
    lines: lines.sort((a, b) => b.total - a.total || a.team.localeCompare(b.team)),
    unowned: toCents(unowned),
    total: toCents(total),
  };
}
