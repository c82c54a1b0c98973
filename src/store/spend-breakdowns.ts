import type { Period } from '../domain/period.js';
import type { CategoryDay, CostLine, UnitKind, UnitTotal } from '../domain/cost-breakdown.js';

export interface SpendBreakdownStore {
  /** A team's effective spend per day and service category: the review's chart. */
  dailyByCategory(period: Period, team: string): Promise<CategoryDay[]>;
  /** A team's largest usage lines, most expensive first. */
  costLines(period: Period, team: string, limit: number): Promise<CostLine[]>;
  /** A team's spend per experiment, run or sweep tag value (untagged lines left out). */
  unitTotals(period: Period, team: string, unit: UnitKind): Promise<UnitTotal[]>;
}

export const UNIT_COLUMN: Record<UnitKind, string> = { experiment: 'experiment', run: 'run_id', sweep: 'sweep' };
