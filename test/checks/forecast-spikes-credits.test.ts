import { describe, expect, it } from 'vitest';
import { forecastPeriodEnd } from '../../src/checks/forecast.js';
import { costKindOf, type CalendarDay } from '../../src/domain/cost-kind.js';
import { daysOf, monthOf, weekdayOf } from '../../src/domain/period.js';

// The audit's cases: one runaway usage day must not move a month's forecast, a credit labelled
// One-Time that accrues every day is a run rate, a tax without ChargeFrequency is not weekday
// usage. Every expected figure is a plain sum over the rows the test writes.

const december = monthOf('2026-12-01');
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
/** Every day of [from, to). */
const days = (from: string, to: string) => daysOf({ start: from, end: to });

/** The truth of a month: the sum of every row written for its days. */
function monthTotal(daily: ReadonlyMap<string, number>, month = december): number {
  return sum(daysOf(month).map((d) => daily.get(d) ?? 0));
}

describe('a single unusual usage day', () => {
  // A team at 1,000 a day, and on 1 December a runaway job billed as usage: +20,000.
  const daily = new Map(days('2026-11-01', '2027-01-01').map((d) => [d, 1000]));
  daily.set('2026-12-01', 1000 + 20_000);
  const truth = monthTotal(daily); // 31 × 1,000 + 20,000 = 51,000
  const budget = 55_000; // the month ends at 93% of it

  it('is counted once in what is spent, not carried onto every day ahead', () => {
    const dataEnd = '2026-12-08';
    const seen = new Map([...daily].filter(([d]) => d < dataEnd));
    const result = forecastPeriodEnd({ daily: seen, period: december, dataEnd, lookbackDays: 28 });
    expect(truth).toBe(31 * 1000 + 20_000);
    expect(result.actual).toBe(sum(days('2026-12-01', dataEnd).map((d) => daily.get(d)!)));
    expect(result.amount).toBeCloseTo(truth, 6);
    expect(result.amount / budget).toBeLessThan(1);
    expect(result.excluded).toEqual([{ day: '2026-12-01', offBy: 20_000 }]);
    expect(result.method).toContain('an unusual day fitted at the usual amount');
  });

  it('never forecasts the budget crossed, whichever day of the month is today', () => {
    for (const dataEnd of days('2026-12-02', '2027-01-01')) {
      const seen = new Map([...daily].filter(([d]) => d < dataEnd));
      const result = forecastPeriodEnd({ daily: seen, period: december, dataEnd, lookbackDays: 28 });
      expect(result.amount, dataEnd).toBeLessThan(budget);
      expect(Math.abs(result.amount - truth), dataEnd).toBeLessThan(0.01);
    }
  });

  it('mid-month too, on a weekly shape with noise', () => {
    // Weekdays 1,000 and weekends 300, a deterministic ±10% wobble, +20,000 on 16 December.
    const shaped = new Map(
      days('2026-11-01', '2027-01-01').map((d, i) => [d, (weekdayOf(d) % 6 === 0 ? 300 : 1000) * (1 + 0.1 * Math.sin(i * 2.3))]),
    );
    shaped.set('2026-12-16', shaped.get('2026-12-16')! + 20_000);
    const total = monthTotal(shaped);
    const seen = new Map([...shaped].filter(([d]) => d < '2026-12-20'));
    const result = forecastPeriodEnd({ daily: seen, period: december, dataEnd: '2026-12-20', lookbackDays: 28 });
    // Within 2% of the true month; the old 7-day level would have scaled every day ahead by the spike.
    expect(Math.abs(result.amount - total) / total).toBeLessThan(0.02);
    expect(result.excluded?.map((e) => e.day)).toEqual(['2026-12-16']);
    expect(result.excluded![0]!.offBy).toBeGreaterThan(19_000);
  });

  it('keeps a step up that lasts: only a short run ending before the data does is set aside', () => {
    // 1,000 a day, then 3,000 a day from 5 December: a new level, not a spike.
    const stepped = new Map(days('2026-11-01', '2027-01-01').map((d) => [d, d >= '2026-12-05' ? 3000 : 1000]));
    const seen = new Map([...stepped].filter(([d]) => d < '2026-12-09'));
    const result = forecastPeriodEnd({ daily: seen, period: december, dataEnd: '2026-12-09', lookbackDays: 28 });
    expect(result.excluded).toBeUndefined();
    // Spent: 4 × 1,000 + 4 × 3,000; the 23 days ahead are projected above the old level.
    expect(result.amount).toBeGreaterThan(4 * 1000 + 4 * 3000 + 23 * 1000 * 1.5);
  });
});

describe('a credit labelled One-Time that accrues every day', () => {
  /** 1,000 of usage a day and, from `from`, an 800 credit a day labelled One-Time (AWS's promotional credits). */
  function credited(from: string) {
    const daily = new Map<string, number>();
    const calendar = new Map<string, CalendarDay>();
    for (const d of days('2026-11-01', '2027-01-01')) {
      const credit = d >= from ? -800 : 0;
      daily.set(d, 1000 + credit);
      if (credit !== 0) calendar.set(d, { recurring: 0, oneTime: credit });
    }
    return { daily, calendar };
  }
  const cut = (m: ReadonlyMap<string, number>, dataEnd: string) => new Map([...m].filter(([d]) => d < dataEnd));
  const cutCalendar = (m: ReadonlyMap<string, CalendarDay>, dataEnd: string) => new Map([...m].filter(([d]) => d < dataEnd));

  it('is projected with usage: the month is forecast net, on the same basis as what is spent', () => {
    const { daily, calendar } = credited('2026-11-01');
    expect(costKindOf('Credit', 'One-Time')).toBe('one-time');
    const truth = monthTotal(daily); // 31 × (1,000 − 800) = 6,200
    expect(truth).toBeCloseTo(6200, 6);
    const result = forecastPeriodEnd({
      daily: cut(daily, '2026-12-03'),
      calendar: cutCalendar(calendar, '2026-12-03'),
      period: december,
      dataEnd: '2026-12-03',
      lookbackDays: 28,
    });
    expect(result.actual).toBeCloseTo(2 * 200, 6);
    expect(result.amount).toBeCloseTo(truth, 6);
    expect(result.method).toContain('recur daily taken as a run rate (-80% of usage)');
  });

  it('is a run rate from its second day', () => {
    const { daily, calendar } = credited('2026-12-01');
    const truth = monthTotal(daily);
    for (const dataEnd of days('2026-12-03', '2027-01-01')) {
      const result = forecastPeriodEnd({
        daily: cut(daily, dataEnd),
        calendar: cutCalendar(calendar, dataEnd),
        period: december,
        dataEnd,
        lookbackDays: 28,
      });
      expect(result.amount, dataEnd).toBeCloseTo(truth, 6);
    }
  });

  it('seen once, is spent and not projected', () => {
    const daily = new Map(days('2026-11-01', '2026-12-06').map((d) => [d, 1000]));
    daily.set('2026-12-02', 1000 - 5000);
    const calendar = new Map<string, CalendarDay>([['2026-12-02', { recurring: 0, oneTime: -5000 }]]);
    const result = forecastPeriodEnd({ daily, calendar, period: december, dataEnd: '2026-12-06', lookbackDays: 28 });
    // By hand: 31 × 1,000 − 5,000.
    expect(result.amount).toBeCloseTo(31 * 1000 - 5000, 6);
  });

  it('on the last day of each of the last two months, labelled One-Time, comes again on this month-end', () => {
    const daily = new Map(days('2026-09-01', '2026-12-10').map((d) => [d, 1000]));
    const calendar = new Map<string, CalendarDay>();
    for (const d of ['2026-09-30', '2026-10-31', '2026-11-30']) {
      daily.set(d, 1000 - 5000);
      calendar.set(d, { recurring: 0, oneTime: -5000 });
    }
    const result = forecastPeriodEnd({ daily, calendar, period: december, dataEnd: '2026-12-10', lookbackDays: 28 });
    // By hand: 31 × 1,000 of usage and November's −5,000 again on 31 December.
    expect(result.amount).toBeCloseTo(31 * 1000 - 5000, 6);
  });
});

describe('a tax without ChargeFrequency', () => {
  it('is kept apart from usage, and not projected onto its weekday', () => {
    expect(costKindOf('Tax', null)).toBe('one-time');
    expect(costKindOf('Tax', 'Usage-Based')).toBe('usage');
    // Usage of 1,000 on weekdays and 300 at weekends; each month's tax, 8% of the month before, on
    // its 1st (a Tuesday in December, a Sunday in November).
    const daily = new Map(days('2026-10-01', '2026-12-10').map((d) => [d, weekdayOf(d) % 6 === 0 ? 300 : 1000]));
    const calendar = new Map<string, CalendarDay>();
    for (const [day, month] of [
      ['2026-11-01', monthOf('2026-10-01')],
      ['2026-12-01', monthOf('2026-11-01')],
    ] as const) {
      const tax = 0.08 * monthTotal(daily, month);
      daily.set(day, daily.get(day)! + tax);
      calendar.set(day, { recurring: 0, oneTime: tax });
    }
    const result = forecastPeriodEnd({ daily, calendar, period: december, dataEnd: '2026-12-10', lookbackDays: 28 });
    // By hand: December's usage (every day written the same way) + December's tax, already billed.
    const usage = sum(daysOf(december).map((d) => (weekdayOf(d) % 6 === 0 ? 300 : 1000)));
    expect(result.amount).toBeCloseTo(usage + calendar.get('2026-12-01')!.oneTime, 6);
  });
});
