import { describe, expect, it } from 'vitest';
import { DEFAULT_WORKING_HOURS } from '../../src/checks/idle/team-schedule.js';
import { configSchema } from '../../src/config/schema.js';
import { isFirstWorkingDay, lastMonth, parseReviewMonth, workingDaysPassed, zonedMidnight } from '../../src/jobs/review/review-calendar.js';

const LA = { timezone: 'America/Los_Angeles', workingHours: DEFAULT_WORKING_HOURS };
const BERLIN = { timezone: 'Europe/Berlin', workingHours: DEFAULT_WORKING_HOURS };

describe('the review calendar, on each team’s clock', () => {
  it('last month is the team’s: 1 Dec 02:00Z is still November in Los Angeles', () => {
    expect(lastMonth(new Date('2026-12-01T02:00:00Z'), 'America/Los_Angeles')).toBe('2026-10');
    expect(lastMonth(new Date('2026-12-01T02:00:00Z'), 'Europe/Berlin')).toBe('2026-11');
    expect(lastMonth(new Date('2027-01-10T12:00:00Z'), 'UTC')).toBe('2026-12');
  });

  it('the first working day skips a weekend: 1 Nov 2026 is a Sunday, so Monday the 2nd', () => {
    expect(isFirstWorkingDay(new Date('2026-11-01T08:00:00Z'), BERLIN)).toBe(false);
    expect(isFirstWorkingDay(new Date('2026-11-02T08:00:00Z'), BERLIN)).toBe(true);
    expect(isFirstWorkingDay(new Date('2026-11-03T08:00:00Z'), BERLIN)).toBe(false);
    expect(isFirstWorkingDay(new Date('2026-12-01T17:00:00Z'), LA)).toBe(true); // Tuesday
    expect(isFirstWorkingDay(new Date('2026-12-01T07:00:00Z'), LA)).toBe(false); // still 30 Nov there
  });

  it('three working days after a Friday post are due on Wednesday at the same time', () => {
    const posted = new Date('2026-11-06T08:00:00Z'); // Friday 09:00 Berlin
    expect(workingDaysPassed(posted, new Date('2026-11-10T08:00:00Z'), 3, BERLIN)).toBe(false); // Tuesday
    expect(workingDaysPassed(posted, new Date('2026-11-11T07:59:00Z'), 3, BERLIN)).toBe(false);
    expect(workingDaysPassed(posted, new Date('2026-11-11T08:00:00Z'), 3, BERLIN)).toBe(true);
    expect(workingDaysPassed(posted, new Date('2026-11-12T01:00:00Z'), 3, BERLIN)).toBe(true);
  });

  it('midnight in a zone, across a DST change', () => {
    expect(zonedMidnight('2027-01-01', 'America/Los_Angeles').toISOString()).toBe('2027-01-01T08:00:00.000Z');
    expect(zonedMidnight('2026-11-01', 'Europe/Berlin').toISOString()).toBe('2026-10-31T23:00:00.000Z');
    expect(zonedMidnight('2026-07-01', 'Europe/Berlin').toISOString()).toBe('2026-06-30T22:00:00.000Z');
    expect(zonedMidnight('2026-12-01', 'Asia/Kolkata').toISOString()).toBe('2026-11-30T18:30:00.000Z');
  });

  it('a month typed by a user is checked', () => {
    const now = new Date('2026-12-02T10:00:00Z');
    expect(parseReviewMonth('2026-11', now)).toBe('2026-11');
    expect(() => parseReviewMonth('Nov', now)).toThrow('"Nov" is not a month');
    expect(() => parseReviewMonth('2027-02', now)).toThrow('2027-02 has not started yet');
  });
});

describe('review and unit-cost configuration', () => {
  it('has defaults, and names a prediction count for an unknown team', () => {
    const config = configSchema.parse({});
    expect(config.unitCosts.tagKeys).toEqual({ experiment: 'experiment', run: 'run_id', sweep: 'sweep' });
    expect(config.review).toEqual({ at: '09:00', lines: 10, reminderAfterWorkingDays: 3 });
    const bad = configSchema.safeParse({ teams: [{ id: 'a' }], unitCosts: { predictions: [{ team: 'b', perMonth: 1000 }] } });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0]).toMatchObject({
      path: ['unitCosts', 'predictions', 0, 'team'],
      message: 'unknown team "b"; expected one of a',
    });
    expect(configSchema.safeParse({ review: { lines: 11 } }).error!.issues[0]!.message).toBe('expected 1 to 10 lines');
  });
});
