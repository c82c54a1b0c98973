import type { WasteDiagnosis } from '../../domain/waste.js';
import { cents } from './allocate.js';

export interface IdleCost {
  cost: number;
  gpuHours: number;
}

/**
 * What each team's GPUs cost while idle or stalled over the diagnosed period: the waste
 * diagnosis's idle and stalled causes, read back, so the review and the waste report show one
 * figure. Both are the bill's charge for each instance over the period times the share of its
 * observed GPU time that was idle or stalled (physical GPU-seconds, a MIG slice at its share).
 * A diagnosis scaled to a month is scaled back to its own days: the review speaks of the period.
 */
export function idleCostByTeam(diagnosis: Pick<WasteDiagnosis, 'teams' | 'period'>): Map<string, IdleCost> {
  const unscale = diagnosis.period.scaledToMonth ? diagnosis.period.days / DAYS_PER_MONTH : 1;
  const costs = new Map<string, IdleCost>();
  for (const row of diagnosis.teams) {
    const monthly = row.categories.filter((c) => c.id === 'idle' || c.id === 'stalled').reduce((s, c) => s + c.monthly, 0);
    if (monthly <= 0 && row.idleGpuHours <= 0) continue;
    costs.set(row.team, { cost: cents(monthly * unscale), gpuHours: row.idleGpuHours });
  }
  return costs;
}

/** Days in an average month: what the diagnosis scales a shorter period to. */
const DAYS_PER_MONTH = 365.25 / 12;
