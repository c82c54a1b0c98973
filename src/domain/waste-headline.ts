import type { OrganisationWaste, TeamWaste } from './waste.js';

/** The figures of a waste headline: waste after fixes out of GPU spend, a month. */
export interface WasteHeadline {
  waste: number;
  spend: number;
}

/**
 * The headline over some rows of a diagnosis. The organisation's row already holds every team
 * once plus what nobody owns, so where it is among the rows it is the headline on its own: adding
 * the teams to it would count their spend twice. Otherwise the rows are distinct teams and add up.
 */
export function wasteHeadline(rows: readonly TeamWaste[]): WasteHeadline {
  const organisation = rows.find((r): r is OrganisationWaste => 'unallocated' in r);
  const counted = organisation ? [organisation] : rows;
  return {
    waste: cents(counted.reduce((s, r) => s + r.afterFixes, 0)),
    spend: cents(counted.reduce((s, r) => s + r.gpuSpend, 0)),
  };
}

function cents(n: number): number {
  return Math.round(n * 100) / 100;
}
