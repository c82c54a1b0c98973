import { describe, expect, it } from 'vitest';
import { savingsLedger, type SavingsLedgerInput } from '../../../src/checks/savings/savings-ledger.js';
import { addDays, weekdayOf } from '../../../src/domain/period.js';
import type { SavingEntry } from '../../../src/domain/saving.js';

// The cases an audit found booked savings that did not happen. Each expected figure is summed here
// from the bill rows the test writes, day by day, as a FinOps practitioner would by hand.

const NOVEMBER = { start: '2026-11-01', end: '2026-12-01' };

const stop = (at: string, over: Partial<SavingEntry> = {}): SavingEntry => ({
  action: 'instance.stop',
  ref: `f-${at}`,
  resourceId: 'i-1',
  name: 'box',
  team: 'ml',
  at: new Date(at),
  byUser: 'U1',
  expectedDaily: 100,
  currency: 'USD',
  ...over,
});

/** Days from `start` (included) to `end` (excluded). */
const days = (start: string, end: string) => {
  const out: string[] = [];
  for (let d = start; d < end; d = addDays(d, 1)) out.push(d);
  return out;
};

/** A bill of i-1: `before(day)` a day in the four weeks before `actionDay`, `after(day)` from it on. */
function bill(actionDay: string, before: (day: string) => number, after: (day: string) => number) {
  const rows = new Map<string, number>();
  for (const d of days(addDays(actionDay, -28), actionDay)) rows.set(d, before(d));
  for (const d of days(actionDay, NOVEMBER.end)) rows.set(d, after(d));
  return rows;
}

const ledgerOf = (input: Omit<SavingsLedgerInput, 'period' | 'currency'>) => savingsLedger({ period: NOVEMBER, currency: 'USD', ...input });

describe('the savings ledger, as a CFO would sign it', () => {
  it('counts a day of an instance stopped twice once', () => {
    // $100 a day every day before the first stop; it cost nothing after either stop, except the
    // 15th, when it had been started again and was stopped at noon ($50).
    const rows = bill(
      '2026-11-10',
      () => 100,
      (d) => (d === '2026-11-15' ? 50 : 0),
    );
    const entries = [stop('2026-11-10T09:00:00Z'), stop('2026-11-15T12:00:00Z')];
    const ledger = ledgerOf({ entries, billedThrough: '2026-12-01', daily: new Map([['i-1', rows]]) });

    // Each day after the first stop, once: the 11th to the 14th for the first, the 16th to the
    // 29th for the second (the bill's 30th is provisional); the 15th, a day of both, for neither.
    const counted = [...days('2026-11-11', '2026-11-15'), ...days('2026-11-16', '2026-11-30')];
    expect(new Set(counted).size).toBe(counted.length);
    // The second stop's baseline is the bill's four weeks before the 15th: $100 a day until the 10th, then $0.
    const secondProfile = new Array(7).fill(0).map((_, wd) => {
      const same = days(addDays('2026-11-15', -28), '2026-11-15').filter((d) => weekdayOf(d) === wd);
      return same.reduce((s, d) => s + rows.get(d)!, 0) / same.length;
    });
    const byHand =
      days('2026-11-11', '2026-11-15').reduce((s, d) => s + Math.max(0, 100 - rows.get(d)!), 0) +
      days('2026-11-16', '2026-11-30').reduce((s, d) => s + Math.max(0, secondProfile[weekdayOf(d)]! - rows.get(d)!), 0);
    expect(ledger.realised).toBeCloseTo(byHand, 2);
    expect(ledger.lines.map((l) => [l.days, l.endedBy])).toEqual([
      [4, 'acted on again'],
      [15, null],
    ]);
    // Never more than the bill's whole run rate over the days after the first stop.
    expect(ledger.realised).toBeLessThanOrEqual(100 * counted.length);
  });

  it('books nothing for a workload resumed 8 seconds after its stop', () => {
    const rows = bill(
      '2026-11-10',
      () => 100,
      () => 100,
    );
    const at = '2026-11-10T09:00:00Z';
    const entries = [stop(at, { endedAt: new Date(Date.parse(at) + 8_000) })];
    const ledger = ledgerOf({ entries, billedThrough: '2026-12-01', daily: new Map([['i-1', rows]]) });
    expect(ledger).toMatchObject({ expected: 0, realised: 0, lines: [] });
  });

  it('ends a stop when the instance is seen running again, not at its last scrape', () => {
    const rows = bill(
      '2026-11-10',
      () => 100,
      (d) => (d < '2026-11-13' ? 0 : 100),
    );
    const at = '2026-11-10T15:00:00Z';
    const seenRunning = new Map([
      // A scrape five minutes after the stop is the stopping machine's last, then it runs again on the 13th.
      ['i-1', [new Date('2026-11-10T15:05:00Z'), new Date('2026-11-13T09:00:00Z'), new Date('2026-11-13T10:00:00Z')]],
    ]);
    const ledger = ledgerOf({ entries: [stop(at)], billedThrough: '2026-12-01', daily: new Map([['i-1', rows]]), seenRunning });
    // The 11th and 12th: stopped all day. The 13th ran in part: it counts for neither figure.
    expect(ledger.lines[0]).toMatchObject({ days: 2, endedBy: 'restarted', expected: 2 * 100, realised: 2 * 100 });
  });

  it('credits a notebook that is always off at weekends nothing for its weekends', () => {
    // $60 on weekdays, nothing at weekends, for four weeks; stopped on Tuesday 10 Nov, $0 since.
    const weekday = (d: string) => weekdayOf(d) !== 0 && weekdayOf(d) !== 6;
    const rows = bill(
      '2026-11-10',
      (d) => (weekday(d) ? 60 : 0),
      () => 0,
    );
    const ledger = ledgerOf({
      entries: [stop('2026-11-10T18:00:00Z', { expectedDaily: 60 })],
      billedThrough: '2026-12-01',
      daily: new Map([['i-1', rows]]),
    });
    const confirmed = days('2026-11-11', '2026-11-30');
    const held = days('2026-11-11', '2026-12-01');
    expect(ledger.lines[0]!.realised).toBeCloseTo(confirmed.filter(weekday).length * 60, 2);
    expect(ledger.lines[0]!.expected).toBeCloseTo(held.filter(weekday).length * 60, 2);
    // A flat mean of the week before would have credited every weekend day at 60 × 5 / 7 a day.
    expect(ledger.realised).toBeLessThan(confirmed.length * ((60 * 5) / 7));
  });

  it("does not confirm the bill's provisional last day", () => {
    const rows = bill(
      '2026-11-10',
      () => 100,
      () => 0,
    );
    const ledger = ledgerOf({ entries: [stop('2026-11-10T09:00:00Z')], billedThrough: '2026-11-14', daily: new Map([['i-1', rows]]) });
    // The bill reaches the 13th; its last day is revised for up to a day, so the 11th and 12th are confirmed.
    expect(ledger.lines[0]).toMatchObject({ confirmedDays: 2, realised: 2 * 100 });
    // Only the first day billed: nothing confirmed yet.
    const first = ledgerOf({ entries: [stop('2026-11-10T09:00:00Z')], billedThrough: '2026-11-12', daily: new Map([['i-1', rows]]) });
    expect(first.lines[0]).toMatchObject({ confirmedDays: 0, realised: null, note: 'not billed yet' });
  });

  it('lets a later action on a resource end the one before, whichever team asks for its ledger', () => {
    const rows = bill(
      '2026-11-10',
      () => 100,
      () => 0,
    );
    const entries = [stop('2026-11-10T09:00:00Z'), stop('2026-11-20T09:00:00Z', { team: 'other' })];
    const ml = ledgerOf({ entries, teams: ['ml'], billedThrough: '2026-12-01', daily: new Map([['i-1', rows]]) });
    expect(ml.lines.map((l) => [l.team, l.days])).toEqual([['ml', 9]]);
  });
});
