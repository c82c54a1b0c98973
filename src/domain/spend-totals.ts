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

export interface TeamDay {
  team: string;
  day: string;
  billed: number;
  effective: number;
}
