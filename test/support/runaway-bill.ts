import type { Deps } from '../../src/deps.js';
import { daysOf, weekdayOf } from '../../src/domain/period.js';
import type { SpendRow } from '../../src/domain/spend.js';
import { spendRow } from './deps.js';

// A hand-written bill for team ml: from 1 October its usual spend (weekdays about $1,000 on its
// base machines, weekends about $400, a few percent of wiggle), and a sweep that runs away on
// one resource on the days given.

export const RUNAWAY_RESOURCE = 'i-llm-sweep-17';

/** The team's usual day: deterministic wiggle of a few percent around the weekday's level. */
export function usualRow(day: string, i: number): SpendRow {
  const weekend = [0, 6].includes(weekdayOf(day));
  const amount = (weekend ? 400 : 1000) * (1 + (((i * 37) % 11) - 5) / 100);
  return { ...spendRow('ml', day, Math.round(amount * 100) / 100), resourceId: 'i-base' };
}

/** The runaway's charge of a day. */
export function sweepRow(day: string, amount: number): SpendRow {
  return { ...spendRow('ml', day, amount), resourceId: RUNAWAY_RESOURCE, service: 'Amazon SageMaker' };
}

/** Usual days from 1 October up to `through` (exclusive) plus the runaway's rows, in one batch whose data reaches `through`. */
export async function importRunawayBill(deps: Deps, through: string, runaway: readonly SpendRow[]): Promise<SpendRow[]> {
  const rows = [...daysOf({ start: '2026-10-01', end: through }).map(usualRow), ...runaway];
  await deps.store.importBatches([
    {
      scope: { source: 'test', billingPeriods: [...new Set(rows.map((r) => r.billingPeriod))] },
      rows,
      dataThrough: `${through}T00:00:00Z`,
    },
  ]);
  return rows;
}
