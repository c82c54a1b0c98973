import { expect } from 'vitest';
import type { SpendRow } from '../../src/domain/spend.js';
import { spendRow } from './deps.js';

// A bill in two currencies, as the consistency tests write it: dollars, and annotation storage
// billed in yen at a different rate each month (FOCUS 1.2's pricing currency gives each bill's own
// rate). The expected figures are plain sums over the rows, each at its own month's rate.

/** USD per yen on each month's bill. */
export const YEN_RATE: Readonly<Record<string, number>> = { '2026-10': 0.007, '2026-11': 0.0067, '2026-12': 0.0065 };

/** A day of `team`'s annotation storage billed in yen, with the bill's own dollar amount beside it. */
export const yenStorageLine = (team: string, day: string, yen: number): SpendRow => ({
  ...spendRow(team, day, yen),
  service: 'Amazon Simple Storage Service',
  resourceId: 'cv-annotations',
  currency: 'JPY',
  pricingCurrency: 'USD',
  pricingCurrencyEffectiveCost: yen * YEN_RATE[day.slice(0, 7)]!,
});

/** A row's effective cost in dollars, yen at its own month's rate. */
export const inUsd = (r: SpendRow): number => (r.currency === 'JPY' ? r.effective * YEN_RATE[r.billingPeriod]! : r.effective);

/** A figure shown within half a cent (or `within`) of the plain sum. */
export function expectClose(actual: number | null | undefined, expected: number, within = 0.005): void {
  expect(actual).not.toBeNull();
  expect(Math.abs(actual! - expected)).toBeLessThan(within);
}
