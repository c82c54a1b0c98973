import { describe, expect, it } from 'vitest';
import { resolutionCause } from '../../src/checks/resolution-cause.js';
import type { CalendarDay } from '../../src/domain/cost-kind.js';
import type { Finding } from '../../src/domain/finding.js';

/** A forecast alert on a $30,000 November budget, as it was measured when raised. */
const before: Finding = {
  id: 'budget.forecast:ml:2026-11:100',
  kind: 'budget.forecast',
  team: 'ml',
  cadence: 'monthly',
  period: '2026-11',
  range: { start: '2026-11-01', end: '2026-12-01' },
  threshold: 100,
  amount: 31_200,
  budget: 30_000,
  currency: 'USD',
  actual: 12_000,
  forecast: { amount: 31_200, method: 'weekday averages' },
  dataThrough: '2026-11-13T00:00:00Z',
};

const calendar = (days: Record<string, number>) =>
  new Map<string, CalendarDay>(Object.entries(days).map(([day, oneTime]) => [day, { recurring: 0, oneTime }]));

describe('why a budget alert resolved', () => {
  it('a raised budget comes first, whatever else moved', () => {
    expect(resolutionCause(before, { budget: 40_000, actual: 11_000, forecast: 29_000 }, calendar({ '2026-11-14': -1_000 }))).toEqual({
      kind: 'budget-raised',
      from: 30_000,
      to: 40_000,
    });
  });

  it('spend that fell with credits on the bill names the largest credit and its day', () => {
    const days = calendar({ '2026-11-03': 250, '2026-11-09': -300, '2026-11-14': -2_000, '2026-12-01': -5_000 });
    // The December credit is outside the period; the $250 purchase is no credit.
    expect(resolutionCause(before, { budget: 30_000, actual: 10_000, forecast: 27_600 }, days)).toEqual({
      kind: 'credit',
      amount: 2_000,
      day: '2026-11-14',
    });
  });

  it('spend that fell with no credit is a revised bill, by the difference', () => {
    expect(resolutionCause(before, { budget: 30_000, actual: 11_400, forecast: 29_500 }, undefined)).toEqual({ kind: 'revised', by: 600 });
  });

  it('a forecast that fell while spend did not is spend that slowed', () => {
    expect(resolutionCause(before, { budget: 30_000, actual: 13_000, forecast: 27_600 }, calendar({}))).toEqual({
      kind: 'slowed',
      from: 31_200,
      to: 27_600,
    });
  });

  it('says nothing when no figure moved by a cent', () => {
    expect(resolutionCause(before, { budget: 30_000, actual: 12_000, forecast: 31_200 }, calendar({}))).toBeNull();
  });
});
