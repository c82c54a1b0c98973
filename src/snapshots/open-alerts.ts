import type { Deps } from '../deps.js';
import { FINDING_FAMILIES, type FindingTable } from '../store/store.js';

/**
 * Open alerts per team, of every check that keeps findings (budget, idle GPUs, sweeps, anomalies,
 * and any check added to FINDING_FAMILIES): the one count App Home's "Alerts" shows.
 */
export async function openAlertsByTeam(deps: Pick<Deps, 'store'>, teamIds: readonly string[]): Promise<Map<string, number>> {
  const tables = Object.keys(FINDING_FAMILIES) as FindingTable[];
  const open = await Promise.all(tables.map((table) => deps.store[table].listOpen() as Promise<{ team: string | null }[]>));
  const counts = new Map<string, number>();
  for (const f of open.flat()) if (f.team !== null && teamIds.includes(f.team)) counts.set(f.team, (counts.get(f.team) ?? 0) + 1);
  return counts;
}
