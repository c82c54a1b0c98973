import { describe, expect, it } from 'vitest';
import { forecastPeriodEnd } from '../../src/checks/forecast.js';
import { addDays, daysOf, monthOf, parseDay } from '../../src/domain/period.js';

/** Weekdays cost 1,000, weekends 200: the shape of ML spend when notebooks stop at weekends. */
function weekdayShaped(from: string, to: string): Map<string, number> {
  const daily = new Map<string, number>();
  for (const day of daysOf({ start: from, end: to })) {
    const weekday = parseDay(day).getUTCDay();
    daily.set(day, weekday === 0 || weekday === 6 ? 200 : 1000);
  }
  return daily;
}

describe('forecastPeriodEnd', () => {
  const november = monthOf('2026-11-10');

  it('projects each remaining day from the average of its weekday', () => {
    const daily = weekdayShaped('2026-10-01', '2026-11-11');
    const result = forecastPeriodEnd({ daily, period: november, dataEnd: '2026-11-11', lookbackDays: 28 });
    const exact = [...weekdayShaped('2026-11-01', '2026-12-01').values()].reduce((a, b) => a + b, 0);
    expect(result.actual).toBe(daysOf({ start: '2026-11-01', end: '2026-11-11' }).reduce((s, d) => s + daily.get(d)!, 0));
    expect(result.amount).toBeCloseTo(exact, 6);
    // The last day with data is provisional (providers revise it for a day): the profile is learnt
    // from the 28 days (four whole weeks) before it.
    expect(result.method).toContain("weekday averages of the last 28 days at the last 7 days' level");
  });

  it('beats a straight line on weekday-shaped spend', () => {
    // Data through a Friday: a straight line over the month so far over-counts the weekends ahead.
    const daily = weekdayShaped('2026-10-01', '2026-11-07');
    const result = forecastPeriodEnd({ daily, period: november, dataEnd: '2026-11-07', lookbackDays: 28 });
    const exact = [...weekdayShaped('2026-11-01', '2026-12-01').values()].reduce((a, b) => a + b, 0);
    const straightLine = (result.actual / 6) * 30;
    expect(Math.abs(result.amount - exact)).toBeLessThan(Math.abs(straightLine - exact));
  });

  it('falls back to a straight line with little history, and says so', () => {
    const daily = new Map([
      ['2026-11-01', 100],
      ['2026-11-02', 300],
    ]);
    const result = forecastPeriodEnd({ daily, period: november, dataEnd: '2026-11-03', lookbackDays: 28 });
    // The 2nd is the provisional last day: counted as spent, kept out of the rate (100 a day), and
    // projected as the larger of what it shows (300) and the rate.
    expect(result.amount).toBe(400 + 100 * 28);
    expect(result.method).toBe('straight line from the last day; 80% range');
  });

  it('returns the actual spend once the period is over', () => {
    const daily = weekdayShaped('2026-10-01', '2026-12-01');
    const result = forecastPeriodEnd({ daily, period: november, dataEnd: addDays('2026-12-01', 3), lookbackDays: 28 });
    expect(result.amount).toBe(result.actual);
    expect(result.method).toContain('period complete');
  });

  it('counts days without rows as zero spend, not as missing history', () => {
    const daily = weekdayShaped('2026-10-01', '2026-11-11');
    daily.delete('2026-11-09');
    const result = forecastPeriodEnd({ daily, period: november, dataEnd: '2026-11-11', lookbackDays: 28 });
    // All 28 days before the provisional one are history: the model is fitted, not the short-history line.
    expect(result.method).toContain('the last 28 days');
    expect(result.method).not.toContain('straight line');
  });
});
