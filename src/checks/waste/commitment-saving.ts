import { cents } from '../review/allocate.js';

/** A commitment sized to one machine, priced as it is paid, a month. */
export interface CommitmentSaving {
  /** Hours a month the machine runs: the hours the commitment would cover. */
  coveredHours: number;
  /** Hours a month the commitment is paid for: every hour of its term, used or not. */
  termHours: number;
  /** What the covered hours cost on demand now. */
  onDemandCost: number;
  /** What the commitment costs for every hour of the term. */
  commitmentCost: number;
  /** onDemandCost − commitmentCost, to the cent: negative when the commitment costs more than it covers. */
  saving: number;
}

/**
 * What a 1-year commitment (reserved instance, Savings Plan, CUD) for one machine saves a month:
 * the on-demand cost of the hours it would actually cover less the commitment's cost for every
 * hour of its term. A commitment is paid every hour, so a machine that runs 79% of the time pays
 * for 21% of hours it does not use; the naive (on-demand − committed rate) × running hours counts
 * none of them. Break-even is a running share of committed ÷ on-demand rate. Pure.
 */
export function commitmentSaving(
  rates: { onDemandHourly: number; committedHourly: number },
  runningShare: number,
  hoursPerMonth: number,
): CommitmentSaving {
  const coveredHours = Math.min(1, Math.max(0, runningShare)) * hoursPerMonth;
  const onDemandCost = rates.onDemandHourly * coveredHours;
  const commitmentCost = rates.committedHourly * hoursPerMonth;
  return {
    coveredHours,
    termHours: hoursPerMonth,
    onDemandCost: cents(onDemandCost),
    commitmentCost: cents(commitmentCost),
    saving: cents(onDemandCost - commitmentCost),
  };
}
