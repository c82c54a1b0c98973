import { describe, expect, it } from 'vitest';
import { billedRunBefore } from '../../../src/checks/idle/billed-run.js';

const day = (hours: number, billed: number) => ({ hours, billed });

describe('billedRunBefore', () => {
  it('walks back over whole billed days and stops at the first day with a stop in it', () => {
    const days = new Map([
      ['2026-11-17', day(24, 10)],
      ['2026-11-16', day(24, 10)],
      ['2026-11-15', day(23.75, 9.9)],
      ['2026-11-14', day(12, 5)], // stopped for half a day
      ['2026-11-13', day(24, 10)],
    ]);
    expect(billedRunBefore(days, '2026-11-18')).toEqual({ since: '2026-11-15', days: 3, billed: 29.9 });
  });

  it('says nothing when the day before the window was not a whole billed day', () => {
    expect(billedRunBefore(new Map([['2026-11-16', day(24, 10)]]), '2026-11-18')).toBeNull();
  });
});
