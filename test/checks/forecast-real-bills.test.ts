import { describe, expect, it } from 'vitest';
import type { CalendarDay } from '../../src/domain/cost-kind.js';
import { forecastPeriodEnd } from '../../src/checks/forecast.js';
import { addDays, daysOf, monthOf } from '../../src/domain/period.js';

// Forecasts on the charges real bills carry. Every expected figure is worked out here by hand from
// the series the test builds.

const november = monthOf('2026-11-15');
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** Usage of `perDay(day index)` every day from 1 October to the day before `to`. */
function series(to: string, perDay: (i: number) => number): Map<string, number> {
  return new Map(daysOf({ start: '2026-10-01', end: to }).map((day, i) => [day, perDay(i)]));
}

describe('forecasts on real bills', () => {
  it('does not project a day-1 one-off onto the rest of the month', () => {
    const daily = series('2026-11-11', () => 100);
    daily.set('2026-11-01', 100 + 3000); // a capacity block bought on the 1st
    const calendar = new Map<string, CalendarDay>([['2026-11-01', { recurring: 0, oneTime: 3000 }]]);
    const result = forecastPeriodEnd({ daily, calendar, period: november, dataEnd: '2026-11-11', lookbackDays: 28 });
    // By hand: 30 days × 100 of usage + the one-off 3,000 = 6,000.
    expect(result.amount).toBeCloseTo(6000, 6);
    // A budget the month ends at 91% of is never forecast to be crossed.
    const budget = 6000 / 0.91;
    expect(result.amount).toBeLessThan(budget);
    // Without the calendar (a source that labels nothing) the one-off is an unusual day of usage:
    // fitted at its usual 100, so the same 6,000, and named with how far above usual it was.
    const blind = forecastPeriodEnd({ daily, period: november, dataEnd: '2026-11-11', lookbackDays: 28 });
    expect(blind.amount).toBeCloseTo(6000, 6);
    expect(blind.excluded).toEqual([{ day: '2026-11-01', offBy: 3000 }]);
  });

  it("adds last month's recurring fee on the days it is not billed yet, and this month's as billed", () => {
    const daily = series('2026-11-11', () => 100);
    const calendar = new Map<string, CalendarDay>();
    for (const day of daysOf(monthOf('2026-10-01'))) {
      daily.set(day, 100 + 10); // October's 310 support fee, spread over its 31 days
      calendar.set(day, { recurring: 10, oneTime: 0 });
    }
    const notYet = forecastPeriodEnd({ daily, calendar, period: november, dataEnd: '2026-11-11', lookbackDays: 28 });
    // By hand: 30 × 100 usage + October's fee on 11–30 October's days (20 × 10) = 3,200.
    expect(notYet.amount).toBeCloseTo(3000 + 200, 6);
    expect(notYet.method).toContain('recurring charges as billed or as last period');

    // November's fee of 300 billed on the 1st and spread over November: its remaining days are known.
    for (const day of daysOf(november)) {
      daily.set(day, (day < '2026-11-11' ? 100 : 0) + 10);
      calendar.set(day, { recurring: 10, oneTime: 0 });
    }
    const billed = forecastPeriodEnd({ daily, calendar, period: november, dataEnd: '2026-11-11', lookbackDays: 28 });
    // By hand: 30 × 100 usage + 300 fee = 3,300.
    expect(billed.amount).toBeCloseTo(3300, 6);
  });

  it("carries last month's recurring credit forward, and a month-end one to this month's last day", () => {
    // A credit billed every month (FOCUS: ChargeCategory Credit, ChargeFrequency Recurring): 500 on
    // 15 October and 800 on 31 October, the last day of a 31-day month.
    const daily = series('2026-11-11', () => 100);
    const calendar = new Map<string, CalendarDay>();
    for (const [day, amount] of [
      ['2026-10-15', -500],
      ['2026-10-31', -800],
    ] as const) {
      daily.set(day, 100 + amount);
      calendar.set(day, { recurring: amount, oneTime: 0 });
    }
    const result = forecastPeriodEnd({ daily, calendar, period: november, dataEnd: '2026-11-11', lookbackDays: 28 });
    // By hand: 30 × 100 of usage, the 15th's credit again on 15 November (−500), the month-end
    // credit on 30 November, November's last day (−800): 3,000 − 1,300 = 1,700.
    expect(result.amount).toBeCloseTo(1700, 6);
    expect(result.method).toContain('recurring charges as billed or as last period');
  });

  it('does not carry a one-off credit forward', () => {
    const daily = series('2026-11-11', () => 100);
    const calendar = new Map<string, CalendarDay>([
      ['2026-10-31', { recurring: 0, oneTime: -800 }], // a one-off refund: not expected again
      ['2026-10-20', { recurring: 10, oneTime: 0 }], // a fee on the 20th: the 20th again
    ]);
    daily.set('2026-10-31', 100 - 800);
    daily.set('2026-10-20', 110);
    const result = forecastPeriodEnd({ daily, calendar, period: november, dataEnd: '2026-11-11', lookbackDays: 28 });
    // By hand: 30 × 100 of usage + 10 on 20 November = 3,010.
    expect(result.amount).toBeCloseTo(3010, 6);
  });

  it("brings a short month's month-end charge to a long month's last day", () => {
    const march = monthOf('2027-03-01');
    const daily = new Map(daysOf({ start: '2027-01-20', end: '2027-03-30' }).map((day) => [day, 100]));
    // February 2027 has 28 days: its month-end fee of 400 is billed on the 28th.
    daily.set('2027-02-28', 500);
    const calendar = new Map<string, CalendarDay>([['2027-02-28', { recurring: 400, oneTime: 0 }]]);
    // Data through the 29th: the 28th has passed without the fee, the 31st is still to come.
    const result = forecastPeriodEnd({ daily, calendar, period: march, dataEnd: '2027-03-30', lookbackDays: 28 });
    // By hand: 31 × 100 of usage + the fee on 31 March = 3,500 (the same day of month, the 31st,
    // has no February day to come from).
    expect(result.amount).toBeCloseTo(3500, 6);
  });

  it('follows a team growing 30% a month better than a weekday average or a straight line', () => {
    const growth = Math.pow(1.3, 1 / 30);
    const perDay = (i: number) => 1000 * Math.pow(growth, i);
    const daily = series('2026-11-11', perDay);
    const truth = sum(daysOf(november).map((_, i) => perDay(31 + i)));
    const result = forecastPeriodEnd({ daily, period: november, dataEnd: '2026-11-11', lookbackDays: 28 });
    const spent = sum(daysOf({ start: '2026-11-01', end: '2026-11-11' }).map((d) => daily.get(d)!));
    const straightLine = (spent / 10) * 30;
    // The previous method: spent so far + the average of the lookback window for each remaining day.
    const window = daysOf({ start: addDays('2026-11-11', -28), end: '2026-11-11' }).map((d) => daily.get(d)!);
    const weekdayAverage = spent + (sum(window) / window.length) * 20;
    // A line through compound growth falls a little short; within 2.5% of the month's total.
    expect(Math.abs(result.amount - truth) / truth).toBeLessThan(0.025);
    expect(Math.abs(result.amount - truth)).toBeLessThan(Math.abs(straightLine - truth));
    expect(Math.abs(result.amount - truth)).toBeLessThan(Math.abs(weekdayAverage - truth));
    expect(result.method).toContain('linear trend');
  });

  it('projects a partial last day at the rate, not as it shows', () => {
    const daily = series('2026-11-11', () => 100);
    daily.set('2026-11-10', 40); // only part of the 10th is in: providers revise it for a day
    const result = forecastPeriodEnd({ daily, period: november, dataEnd: '2026-11-11', lookbackDays: 28 });
    // By hand: 9 × 100 + 40 spent, the 10th completed to 100 (+60), 20 days × 100 to come = 3,000.
    expect(result.amount).toBeCloseTo(3000, 6);
  });

  it('counts a last day that shows a little less than usual as it shows: only a day that looks partly loaded is completed', () => {
    // Noise of ±10% a day, deterministic: the model's daily error is about 7% of a day.
    const noisy = (i: number) => 100 * (1 + 0.1 * Math.sin(i * 2.3));
    const daily = series('2026-11-11', noisy).set('2026-11-10', 100); // the last day: an ordinary one
    const full = forecastPeriodEnd({ daily, period: november, dataEnd: '2026-11-11', lookbackDays: 28 });
    // 3% less on the last day is inside a normal day's range: the forecast drops by exactly those 3%.
    const slightly = new Map(daily).set('2026-11-10', daily.get('2026-11-10')! * 0.97);
    const dip = forecastPeriodEnd({ daily: slightly, period: november, dataEnd: '2026-11-11', lookbackDays: 28 });
    expect(full.amount - dip.amount).toBeCloseTo(daily.get('2026-11-10')! * 0.03, 6);
    // 40% of a day is not: it is completed to what the model expects, so the forecast barely moves.
    const partial = new Map(daily).set('2026-11-10', daily.get('2026-11-10')! * 0.4);
    const loaded = forecastPeriodEnd({ daily: partial, period: november, dataEnd: '2026-11-11', lookbackDays: 28 });
    expect(Math.abs(full.amount - loaded.amount)).toBeLessThan(0.15 * daily.get('2026-11-10')!);
  });

  it("keeps the whole history's level when weekly levels move no more than noise, and follows a real step", () => {
    // Every weekday 1,000 with a deterministic ±10% wobble; the last week's level a little high by chance.
    const wobble = (i: number) => 1000 * (1 + 0.1 * Math.sin(i * 2.3));
    const history = series('2026-11-11', wobble);
    const averages = sum(daysOf({ start: addDays('2026-11-10', -28), end: '2026-11-10' }).map((d) => history.get(d)!)) / 28;
    const steady = forecastPeriodEnd({ daily: history, period: november, dataEnd: '2026-11-11', lookbackDays: 28 });
    const spent = sum(daysOf({ start: '2026-11-01', end: '2026-11-11' }).map((d) => history.get(d)!));
    // By hand: spent + 20 days at the 28-day average, within 1% of the month.
    expect(Math.abs(steady.amount - (spent + 20 * averages)) / steady.amount).toBeLessThan(0.01);
    // A step to 1.5× for the last 12 days: the forecast follows the new level.
    const stepped = new Map([...history].map(([d, v]) => [d, d >= '2026-10-30' ? v * 1.5 : v]));
    const step = forecastPeriodEnd({ daily: stepped, period: november, dataEnd: '2026-11-11', lookbackDays: 28 });
    const steppedSpent = sum(daysOf({ start: '2026-11-01', end: '2026-11-11' }).map((d) => stepped.get(d)!));
    expect((step.amount - steppedSpent) / 20).toBeGreaterThan(1.4 * 1000);
  });

  it('gives an 80% range around the forecast that narrows as the month goes by', () => {
    // Noise of ±20% a day, deterministic.
    const noisy = (i: number) => 1000 * (1 + 0.2 * Math.sin(i * 2.3));
    const early = forecastPeriodEnd({ daily: series('2026-11-04', noisy), period: november, dataEnd: '2026-11-04', lookbackDays: 28 });
    const late = forecastPeriodEnd({ daily: series('2026-11-26', noisy), period: november, dataEnd: '2026-11-26', lookbackDays: 28 });
    for (const f of [early, late]) {
      expect(f.low!).toBeLessThanOrEqual(f.amount);
      expect(f.high!).toBeGreaterThanOrEqual(f.amount);
    }
    expect(early.high! - early.low!).toBeGreaterThan(late.high! - late.low!);
    expect(early.method).toContain('80% range');
  });
});
