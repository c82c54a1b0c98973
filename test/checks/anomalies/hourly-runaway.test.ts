import { describe, expect, it } from 'vitest';
import { hourlyRunaway, type HourAmount } from '../../../src/checks/anomalies/hourly-runaway.js';

// A GPU fleet's hourly cost: $60 an hour from 09:00 to 19:00 UTC, $15 at night, a few percent of
// deterministic wiggle; eight days of it before the day judged.

const POLICY = { floor: 200, deviations: 3 };
const DAY0 = Date.parse('2026-11-01T00:00:00Z') / 1000;
const H = 3600;

function fleet(days: number, extra: (hour: number) => number = () => 0): HourAmount[] {
  return Array.from({ length: days * 24 }, (_, i) => {
    const hour = DAY0 + i * H;
    const hourOfDay = i % 24;
    const usual = (hourOfDay >= 9 && hourOfDay < 19 ? 60 : 15) * (1 + (((i * 37) % 11) - 5) / 100);
    return { hour, amount: usual + extra(hour) };
  });
}

const at = (day: number, hourOfDay: number) => DAY0 + (day * 24 + hourOfDay) * H;

describe('hourly runaway', () => {
  it('catches a sweep growing $25 an hour from 14:00 once its excess passes the $200 floor, with the excess a plain sum gives', () => {
    const start = at(8, 14);
    const runaway = (hour: number) => (hour >= start ? 25 * ((hour - start) / H + 1) : 0);
    const series = fleet(9, runaway);
    // One hour is a job starting; three hours are $150 over: under the floor, nothing yet.
    expect(hourlyRunaway(series, POLICY, start)).toBeNull();
    expect(hourlyRunaway(series, POLICY, start + 2 * H)).toBeNull();
    const run = hourlyRunaway(series, POLICY, start + 3 * H)!;
    expect(run).toMatchObject({ started: start, last: start + 3 * H, hours: 4 });
    // Independent: the injected amounts over the four hours (the usual hours' median is close to the wiggle-free level).
    expect(run.excess).toBeGreaterThan(25 + 50 + 75 + 100 - 10);
    expect(run.excess).toBeLessThan(25 + 50 + 75 + 100 + 10);
    // The last hour's $100 of excess, as a day at that rate.
    expect(run.perDay).toBeGreaterThan(24 * (100 - 5));
    expect(run.perDay).toBeLessThan(24 * (100 + 5));
    // Two hours on, still the same run from 14:00.
    expect(hourlyRunaway(series, POLICY, start + 5 * H)).toMatchObject({ started: start, hours: 6 });
  });

  it('a job that runs every night is usual, and an hour without a week of history is not judged', () => {
    const nightly = (hour: number) => (((hour - DAY0) / H) % 24 === 2 || ((hour - DAY0) / H) % 24 === 3 ? 400 : 0);
    const series = fleet(9, nightly);
    expect(hourlyRunaway(series, POLICY, at(8, 3))).toBeNull();
    // Two days of data: fewer than three past days for any hour.
    const short = fleet(2, (hour) => (hour >= at(1, 10) ? 500 : 0));
    expect(hourlyRunaway(short, POLICY, at(1, 12))).toBeNull();
  });

  it('a rise under the floor so far is no anomaly however many deviations it is', () => {
    // +$6 an hour at night for three hours: $18.
    const series = fleet(9, (hour) => (hour >= at(8, 1) ? 6 : 0));
    expect(hourlyRunaway(series, POLICY, at(8, 4))).toBeNull();
  });
});
