import { describe, expect, it } from 'vitest';
import { expectDay, type DayAmount } from '../../../src/checks/anomalies/expected-spend.js';
import { judgeDays } from '../../../src/checks/anomalies/judge-days.js';
import { teamAnomaly } from '../../../src/checks/anomalies/team-anomaly.js';
import { teamDays } from '../../../src/checks/anomalies/team-days.js';
import { addDays, weekdayOf } from '../../../src/domain/period.js';

const POLICY = { enabled: true, floor: 200, deviations: 3, windowDays: 28, minHistoryDays: 7 };

/** 35 days from a Monday: weekdays 1,000 ± 3%, weekends `weekend`. */
function series(weekend: number, days = 35, start = '2026-10-05'): DayAmount[] {
  return Array.from({ length: days }, (_, i) => {
    const day = addDays(start, i);
    const off = [0, 6].includes(weekdayOf(day));
    return { day, amount: off ? weekend : 1000 * (1 + ((i * 7) % 7) / 100 - 0.03) };
  });
}

describe('the expected day', () => {
  it('follows the weekday profile: a Saturday of a weekday-only team is expected at 0', () => {
    const history = series(0);
    const saturday = addDays('2026-10-05', 40);
    expect(weekdayOf(saturday)).toBe(6);
    expect(expectDay(history, saturday, 28, 7)!.expected).toBe(0);
    const monday = addDays('2026-10-05', 35);
    expect(expectDay(history, monday, 28, 7)!.expected).toBeGreaterThan(950);
  });

  it('is not moved by the spike it is looking for', () => {
    const history = series(400);
    const spiked = history.map((d, i) => (i === 30 ? { ...d, amount: 20_000 } : d));
    const day = addDays('2026-10-05', 35);
    expect(expectDay(spiked, day, 28, 7)!.expected).toBeCloseTo(expectDay(history, day, 28, 7)!.expected, 0);
  });

  it('follows a steady trend instead of calling its growth an anomaly', () => {
    const growing = Array.from({ length: 35 }, (_, i) => ({ day: addDays('2026-10-05', i), amount: 1000 + 40 * i }));
    const expectation = expectDay(growing, addDays('2026-10-05', 35), 28, 7)!;
    // 2,400 on the line; the weekday profile read off a growing line leaves it within 2%.
    expect(Math.abs(expectation.expected - 2400) / 2400).toBeLessThan(0.02);
  });

  it('starts on a short history with the median level, and says how short', () => {
    const short = series(1000, 8);
    const expectation = expectDay(short, addDays('2026-10-05', 8), 28, 7)!;
    expect(expectation.historyDays).toBe(8);
    expect(expectDay(series(1000, 5), addDays('2026-10-05', 5), 28, 7)).toBeNull();
  });
});

describe('an anomaly run', () => {
  const daily = (amounts: DayAmount[]) => new Map(amounts.map((a) => [a.day, a.amount]));

  it('a weekend spike on a weekday-only team fires on the weekend day', () => {
    const history = series(0);
    const saturday = '2026-11-07';
    const withSpike = [...history.filter((d) => d.day < saturday), { day: saturday, amount: 900 }, { day: '2026-11-08', amount: 0 }];
    const days = teamDays(daily(withSpike), undefined, '2026-11-08');
    const found = teamAnomaly({
      team: 'ml',
      currency: 'USD',
      policy: POLICY,
      judged: judgeDays(days, POLICY, '2026-11-08'),
      drivers: new Map(),
      acceptances: [],
      provisional: '2026-11-08',
    });
    expect(found).toMatchObject({ id: 'anomaly:ml:2026-11-07', day: '2026-11-07', provisional: false, actual: 900 });
  });

  it('a one-off purchase like one of the month before is known; a first one counts as new', () => {
    const history = series(400, 40);
    const last = history.at(-1)!.day;
    const calendar = new Map([
      [addDays(last, -30), { recurring: 0, oneTime: 3000 }],
      [last, { recurring: 0, oneTime: 3000 }],
    ]);
    const withCharges = daily(history.map((d) => ({ ...d, amount: d.amount + (calendar.get(d.day)?.oneTime ?? 0) })));
    const known = teamDays(withCharges, calendar, last);
    expect(known.newCharges.get(last)).toBeUndefined();
    expect(known.newCharges.get(addDays(last, -30))).toBe(3000);
  });
});
