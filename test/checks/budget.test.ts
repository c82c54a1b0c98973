import { describe, expect, it } from 'vitest';
import { checkBudgets, type BudgetSnapshot } from '../../src/checks/budget/check-budgets.js';
import { teamSchema } from '../../src/config/schema.js';
import { daysOf } from '../../src/domain/period.js';

const team = (id: string, budget: object, timezone = 'UTC') => teamSchema.parse({ id, timezone, budget });

function flat(from: string, to: string, perDay: number): Map<string, number> {
  return new Map(daysOf({ start: from, end: to }).map((d) => [d, perDay]));
}

describe('checkBudgets', () => {
  // 2026-11-21 09:00 UTC; data through the end of 20 November.
  const now = new Date('2026-11-21T09:00:00Z');
  const snapshot = (teams: ReturnType<typeof team>[], daily: Record<string, Map<string, number>>): BudgetSnapshot => ({
    teams,
    daily: new Map(Object.entries(daily)),
    dataThrough: '2026-11-21T00:00:00Z',
  });

  it('finds every crossed threshold of month-to-date spend, keyed by team, period, kind and threshold', () => {
    const teams = [team('a', { monthly: 1000, thresholds: [50, 80, 100], forecast: false })];
    const findings = checkBudgets(snapshot(teams, { a: flat('2026-11-01', '2026-11-21', 42) }), { lookbackDays: 28 }, now);
    expect(findings.map((f) => f.id)).toEqual(['budget.actual:a:2026-11:50', 'budget.actual:a:2026-11:80']);
    expect(findings[1]).toMatchObject({ amount: 840, actual: 840, budget: 1000, period: '2026-11', cadence: 'monthly', forecast: null });
  });

  it('forecasts the month end and alerts at 100% before the money is spent', () => {
    const teams = [team('a', { monthly: 1000, thresholds: [50, 80, 100] })];
    const findings = checkBudgets(snapshot(teams, { a: flat('2026-10-01', '2026-11-21', 40) }), { lookbackDays: 28 }, now);
    const forecast = findings.find((f) => f.kind === 'budget.forecast');
    expect(forecast?.id).toBe('budget.forecast:a:2026-11:100');
    expect(forecast?.amount).toBeCloseTo(1200, 6);
    expect(forecast?.forecast?.method).toContain('weekday averages');
  });

  it('says one fact once: on the last day, with the month spent at 133%, only the spend alerts fire, no forecast of the same crossing', () => {
    const teams = [team('a', { monthly: 1000, thresholds: [50, 80, 100, 120] })];
    const end = new Date('2026-11-30T20:00:00Z');
    // 40 a day over November's 30 days, every one of them in the data: 1,200 spent, nothing left to forecast.
    const findings = checkBudgets(
      { teams, daily: new Map([['a', flat('2026-10-01', '2026-12-01', 40)]]), dataThrough: '2026-12-01T00:00:00Z' },
      { lookbackDays: 28 },
      end,
    );
    expect(findings.map((f) => f.id)).toEqual([
      'budget.actual:a:2026-11:50',
      'budget.actual:a:2026-11:80',
      'budget.actual:a:2026-11:100',
      'budget.actual:a:2026-11:120',
    ]);
    // Mid-month, spend past 100% but the forecast past a line spend has not reached: that forecast still fires.
    const mid = checkBudgets(snapshot(teams, { a: flat('2026-10-01', '2026-11-21', 55) }), { lookbackDays: 28 }, now);
    expect(mid.filter((f) => f.kind === 'budget.forecast').map((f) => f.threshold)).toEqual([120]);
    expect(mid.filter((f) => f.kind === 'budget.actual').map((f) => f.threshold)).toEqual([50, 80, 100]);
  });

  it('checks week-to-date spend against a weekly budget', () => {
    const teams = [team('a', { weekly: 100, thresholds: [50, 80], forecast: false })];
    // ISO week of Sat 21 Nov starts Mon 16 Nov: five days of 10 by the end of the 20th.
    const findings = checkBudgets(snapshot(teams, { a: flat('2026-11-01', '2026-11-21', 10) }), { lookbackDays: 28 }, now);
    expect(findings.map((f) => f.id)).toEqual(['budget.actual:a:2026-W47:50']);
    expect(findings[0]?.actual).toBe(50);
  });

  it("uses each team's own calendar: on 1 December in Tokyo it is a new month", () => {
    const late = new Date('2026-11-30T16:00:00Z');
    const teams = [
      team('tokyo', { monthly: 100, thresholds: [50], forecast: false }, 'Asia/Tokyo'),
      team('utc', { monthly: 100, thresholds: [50], forecast: false }),
    ];
    const findings = checkBudgets(
      {
        teams,
        daily: new Map([
          ['tokyo', flat('2026-11-01', '2026-12-01', 10)],
          ['utc', flat('2026-11-01', '2026-12-01', 10)],
        ]),
        dataThrough: '2026-11-30T00:00:00Z',
      },
      { lookbackDays: 28 },
      late,
    );
    expect(findings.map((f) => f.id)).toEqual(['budget.actual:utc:2026-11:50']);
  });

  it('finds nothing without data or without a budget', () => {
    const teams = [team('a', { monthly: 1 }), teamSchema.parse({ id: 'b' })];
    expect(checkBudgets({ teams, daily: new Map(), dataThrough: null }, { lookbackDays: 28 }, now)).toEqual([]);
    expect(checkBudgets(snapshot([teams[1]!], { b: flat('2026-11-01', '2026-11-21', 1e6) }), { lookbackDays: 28 }, now)).toEqual([]);
  });
});
