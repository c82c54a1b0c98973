import type { Period } from '../domain/period.js';
import type { CategoryDay, CostLine, Priced, UnitKind, UnitTotal } from '../domain/cost-breakdown.js';

// Each slice comes in parts, one per currency and billing period, never summed across them: the
// read model (snapshots/team-breakdowns.ts) converts each part at its period's rate, then adds,
// ranks and cuts. Ranking yen beside dollars before converting would put every yen line first.
export interface SpendBreakdownStore {
  /** A team's effective spend per day and service category: the review's chart. */
  dailyByCategory(period: Period, team: string): Promise<(CategoryDay & Priced)[]>;
  /** A team's usage lines: a resource, or a service where the bill names no resource. */
  costLines(period: Period, team: string): Promise<(CostLine & Priced)[]>;
  /** A team's spend per experiment, run or sweep tag value (untagged lines left out). */
  unitTotals(period: Period, team: string, unit: UnitKind): Promise<(UnitTotal & Priced)[]>;
}

export const UNIT_COLUMN: Record<UnitKind, string> = { experiment: 'experiment', run: 'run_id', sweep: 'sweep' };
