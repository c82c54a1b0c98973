import type { Deps } from '../deps.js';
import { FINDING_FAMILIES, type FindingFamily, type FindingTable } from '../store/store.js';

/** An open finding of any check, as its check keeps it, with the family it belongs to. */
export interface OpenFinding {
  family: FindingFamily;
  table: FindingTable;
  finding: { id: string; kind: string; team: string | null; firstSeen: Date | string; lastSeen: Date | string };
}

/**
 * The open alerts of every check that keeps findings (budget, idle GPUs, sweeps, anomalies, and
 * any check added to FINDING_FAMILIES) of `teams` (null: every team's and those of no team): the
 * one list App Home counts and the MCP `findings` tool lists.
 */
export async function openFindings(deps: Pick<Deps, 'store'>, teams: readonly string[] | null): Promise<OpenFinding[]> {
  const tables = Object.keys(FINDING_FAMILIES) as FindingTable[];
  const open = await Promise.all(
    tables.map(async (table) =>
      ((await deps.store[table].listOpen()) as OpenFinding['finding'][]).map((finding) => ({
        family: FINDING_FAMILIES[table],
        table,
        finding,
      })),
    ),
  );
  return open.flat().filter((f) => teams === null || (f.finding.team !== null && teams.includes(f.finding.team)));
}

/** Open alerts per team: the one count App Home's "Alerts" shows. */
export async function openAlertsByTeam(deps: Pick<Deps, 'store'>, teamIds: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const { finding } of await openFindings(deps, teamIds)) counts.set(finding.team!, (counts.get(finding.team!) ?? 0) + 1);
  return counts;
}
