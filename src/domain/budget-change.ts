import type { Cadence } from './finding.js';

/** A budget change that took effect: the team, the cadence, the new amount and the one it replaced. */
export interface AppliedBudgetChange {
  team: string;
  cadence: Cadence;
  amount: number;
  /** The budget in force before; null when the team had none for this cadence. */
  previous: number | null;
}
