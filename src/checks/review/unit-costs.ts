import type { UnitCost } from '../../domain/review.js';
import type { UnitTotal } from '../../domain/cost-breakdown.js';
import { toCents } from '../idle/idle-findings.js';

/** Cost per experiment, run or sweep: how many had cost, their total, the average and the largest. */
export function unitCost(totals: readonly UnitTotal[]): UnitCost {
  const total = totals.reduce((sum, t) => sum + t.effective, 0);
  const top = totals.reduce<UnitTotal | null>((best, t) => (!best || t.effective > best.effective ? t : best), null);
  return {
    count: totals.length,
    total: toCents(total),
    average: totals.length === 0 ? 0 : toCents(total / totals.length),
    top: top ? { key: top.key, cost: toCents(top.effective) } : null,
  };
}

/** Cost per 1,000 predictions of a month's spend; null without a prediction count. */
export function costPerThousandPredictions(spend: number, predictions: number | undefined): { predictions: number; cost: number } | null {
  if (!predictions || predictions <= 0) return null;
  return { predictions, cost: Math.round((spend / predictions) * 1000 * 1e4) / 1e4 };
}
