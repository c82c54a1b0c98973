import { describe, expect, it } from 'vitest';
import { biggestMovers, budgetPace, digestPeriod } from '../../../src/checks/digest/digest-period.js';

describe('what a digest covers', () => {
  it('is yesterday for a daily digest, compared with the day before', () => {
    expect(digestPeriod('daily', '2026-12-01')).toEqual({
      cadence: 'daily',
      period: { start: '2026-11-30', end: '2026-12-01' },
      previous: { start: '2026-11-29', end: '2026-11-30' },
      label: '2026-11-30',
    });
  });

  it('is last ISO week for a weekly digest, sent on Mondays only', () => {
    expect(digestPeriod('weekly', '2026-11-30')).toMatchObject({
      period: { start: '2026-11-23', end: '2026-11-30' },
      previous: { start: '2026-11-16', end: '2026-11-23' },
    });
    expect(digestPeriod('weekly', '2026-12-01')).toBeNull();
  });

  it("paces a monthly budget by each day's own month, a weekly budget by its seven days", () => {
    // 28 Nov – 4 Dec: 3 days of November's 30 and 4 of December's 31.
    expect(budgetPace({ monthly: 3000 }, { start: '2026-11-28', end: '2026-12-05' })).toBeCloseTo((3 * 3000) / 30 + (4 * 3000) / 31, 9);
    expect(budgetPace({ weekly: 700 }, { start: '2026-12-03', end: '2026-12-04' })).toBe(100);
    expect(budgetPace(undefined, { start: '2026-12-03', end: '2026-12-04' })).toBeNull();
  });

  it('names the services that moved most, either way, and leaves out those that did not move', () => {
    const now = [
      { key: 'EC2', billed: 0, effective: 900 },
      { key: 'S3', billed: 0, effective: 10 },
      { key: 'SageMaker', billed: 0, effective: 50 },
    ];
    const before = [
      { key: 'EC2', billed: 0, effective: 400 },
      { key: 'S3', billed: 0, effective: 10 },
      { key: 'Bedrock', billed: 0, effective: 300 },
    ];
    expect(biggestMovers(now, before).map((m) => [m.key, m.change])).toEqual([
      ['EC2', 500],
      ['Bedrock', -300],
      ['SageMaker', 50],
    ]);
  });
});
