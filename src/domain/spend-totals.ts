import type { CostKind } from './cost-kind.js';
import type { Period } from './period.js';

export interface SpendFilter {
  period: Period;
  /** Only these teams; undefined means every team, including (untagged) and (unmapped). */
  teams?: readonly string[];
}

export interface SpendTotal {
  key: string;
  billed: number;
  effective: number;
}

/** A team's spend of one day, in one currency, of one kind of charge (see cost-kind.ts). */
export interface TeamDay {
  team: string;
  day: string;
  currency: string;
  kind: CostKind;
  billed: number;
  effective: number;
}
