import { describe, expect, it } from 'vitest';
import { savingsLedger } from '../../../src/checks/savings/savings-ledger.js';
import type { SavingEntry } from '../../../src/domain/saving.js';

const stop = (at: string, over: Partial<SavingEntry> = {}): SavingEntry => ({
  action: 'instance.stop',
  ref: `f-${at}`,
  resourceId: 'i-1',
  name: 'box',
  team: 'ml',
  at: new Date(at),
  byUser: 'U1',
  expectedDaily: 24,
  currency: 'USD',
  ...over,
});

/** $20 a day for the week before 10 Nov; after it, the days given. */
function charges(after: Record<string, number>): Map<string, Map<string, number>> {
  const days = new Map<string, number>();
  for (let d = 3; d <= 9; d++) days.set(`2026-11-0${d}`, 20);
  for (const [day, amount] of Object.entries(after)) days.set(day, amount);
  return new Map([['i-1', days]]);
}

const NOVEMBER = { start: '2026-11-01', end: '2026-12-01' };

describe('savingsLedger', () => {
  it('counts a day a restarted instance cost more than before as nothing saved, not as a loss', () => {
    const ledger = savingsLedger({
      entries: [stop('2026-11-10T15:00:00Z')],
      period: NOVEMBER,
      billedThrough: '2026-11-14',
      daily: charges({ '2026-11-10': 9, '2026-11-11': 0, '2026-11-12': 5, '2026-11-13': 31 }),
      currency: 'USD',
    });
    // 11th: 20 − 0; 12th: 20 − 5. The day of the stop counts for neither, and the 13th (more than
    // before) is the bill's last, provisional day: not confirmed yet.
    expect(ledger.lines[0]).toMatchObject({ baselineDaily: 20, realised: 35, confirmedDays: 2, expected: 20 * 24 });
    expect(ledger.realised).toBe(35);
  });

  it('a month after the action it no longer counts; a reverted spot migration counts until its revert, expected only', () => {
    const ledger = savingsLedger({
      entries: [
        stop('2026-10-05T10:00:00Z'),
        {
          ...stop('2026-11-20T10:00:00Z'),
          action: 'spot.approve',
          ref: 'migration:1',
          // Not on the bill before: no weekday profile, every day counts whole.
          resourceId: 'i-2',
          expectedDaily: 10,
          endedAt: new Date('2026-11-25T08:00:00Z'),
        },
      ],
      period: NOVEMBER,
      billedThrough: '2026-12-01',
      daily: charges({}),
      currency: 'USD',
    });
    // The stop of 5 Oct counts 6 Oct – 4 Nov: 4 days of November.
    expect(ledger.lines.map((l) => [l.action, l.expected, l.realised])).toEqual([
      ['instance.stop', 4 * 24, null],
      ['spot.approve', 4 * 10, null],
    ]);
    expect(ledger.lines[1]!.note).toContain('expected only');
  });
});
