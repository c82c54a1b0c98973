import type { Team } from './team.js';
import { UNMAPPED, UNTAGGED } from './spend.js';

/** Normalises a tag key or value for matching: case and surrounding or inner whitespace do not count. */
export function normaliseTag(text: string): string {
  return text.replace(/\s+/g, '').toLowerCase();
}

/** Builds a lookup from an ownership tag value to the team id it means. */
export function teamResolver(teams: readonly Team[]): (ownerTag: string | null | undefined) => string {
  const byValue = new Map<string, string>();
  for (const team of teams) {
    byValue.set(normaliseTag(team.id), team.id);
    for (const value of team.match) byValue.set(normaliseTag(value), team.id);
  }
  return (ownerTag) => {
    if (ownerTag === null || ownerTag === undefined) return UNTAGGED;
    const normalised = normaliseTag(ownerTag);
    if (normalised === '' || normalised === 'null') return UNTAGGED;
    return byValue.get(normalised) ?? UNMAPPED;
  };
}

/** The value of the first configured tag key present in `tags` (keys compared normalised). */
export function ownerTagOf(tags: Record<string, unknown> | null | undefined, tagKeys: readonly string[]): string | null {
  if (!tags) return null;
  const entries = Object.entries(tags).map(([k, v]) => [normaliseTag(k), v] as const);
  for (const key of tagKeys) {
    const wanted = normaliseTag(key);
    const hit = entries.find(([k, v]) => k === wanted && v !== null && v !== undefined && String(v).trim() !== '');
    if (hit) return String(hit[1]).trim();
  }
  return null;
}
