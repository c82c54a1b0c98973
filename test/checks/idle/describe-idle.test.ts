import { describe, expect, it } from 'vitest';
import { describeIdleSince } from '../../../src/checks/idle/describe-idle.js';
import { DEFAULT_WORKING_HOURS } from '../../../src/checks/idle/team-schedule.js';
import { workingHoursSchema } from '../../../src/checks/idle/working-hours-schema.js';

const say = (since: string, now: string, zone = 'UTC', hours = DEFAULT_WORKING_HOURS) =>
  describeIdleSince(new Date(since), new Date(now), zone, hours);

// November 2026: Friday 20, Saturday 21, Sunday 22, Monday 23.
describe('describeIdleSince', () => {
  it('gives the time for today and "yesterday" across midnight', () => {
    expect(say('2026-11-18T10:05:00Z', '2026-11-18T16:00:00Z')).toBe('idle since 10:05');
    expect(say('2026-11-18T19:40:00Z', '2026-11-19T08:15:00Z')).toBe('idle since 19:40 yesterday');
    expect(say('2026-11-18T23:59:00Z', '2026-11-19T00:01:00Z')).toBe('idle since 23:59 yesterday');
  });

  it('says "all weekend" from Friday evening to a working day', () => {
    expect(say('2026-11-20T19:40:00Z', '2026-11-23T09:00:00Z')).toBe('idle all weekend');
    expect(say('2026-11-20T14:20:00Z', '2026-11-23T09:00:00Z')).toBe('idle all weekend, since 14:20 on Friday');
  });

  it('names the day while the weekend lasts, or when it went idle inside it', () => {
    expect(say('2026-11-20T19:40:00Z', '2026-11-22T11:00:00Z')).toBe('idle since 19:40 on Friday');
    expect(say('2026-11-21T10:00:00Z', '2026-11-23T09:00:00Z')).toBe('idle since 10:00 on Saturday');
    expect(say('2026-11-22T19:40:00Z', '2026-11-23T09:00:00Z')).toBe('idle since 19:40 yesterday');
  });

  it('counts calendar days beyond that', () => {
    expect(say('2026-11-16T10:00:00Z', '2026-11-19T09:00:00Z')).toBe('idle for 3 days');
    expect(say('2026-11-19T19:40:00Z', '2026-11-23T09:00:00Z')).toBe('idle for 4 days');
    expect(say('2026-11-20T19:40:00Z', '2026-11-24T09:00:00Z')).toBe('idle for 4 days');
  });

  it("reads the team's own clock: the same instants differ by time zone", () => {
    const [since, now] = ['2026-11-19T23:40:00Z', '2026-11-20T09:00:00Z'];
    expect(say(since, now, 'Asia/Tokyo')).toBe('idle since 08:40'); // 08:40 to 18:00 on Friday 20
    expect(say(since, now, 'America/New_York')).toBe('idle since 18:40 yesterday'); // Thu 18:40 to Fri 04:00
    // Saturday 04:00 in UTC is Friday 20:00 in Los Angeles, after working hours.
    expect(say('2026-11-21T04:00:00Z', '2026-11-23T17:00:00Z', 'UTC')).toBe('idle since 04:00 on Saturday');
    expect(say('2026-11-21T04:00:00Z', '2026-11-23T17:00:00Z', 'America/Los_Angeles')).toBe('idle all weekend');
    expect(say('2026-11-20T23:00:00Z', '2026-11-23T17:00:00Z', 'America/Los_Angeles')).toBe('idle all weekend, since 15:00 on Friday');
  });

  it('follows the working days of the team', () => {
    const sundayToThursday = workingHoursSchema.parse({ days: [0, 1, 2, 3, 4], end: '17:00' });
    // Thursday 19 Nov 17:30 to Sunday 22 Nov 09:00 in Asia/Jerusalem (UTC+2).
    expect(say('2026-11-19T15:30:00Z', '2026-11-22T07:00:00Z', 'Asia/Jerusalem', sundayToThursday)).toBe('idle all weekend');
    expect(say('2026-11-20T17:40:00Z', '2026-11-23T07:00:00Z', 'Asia/Jerusalem', sundayToThursday)).toBe('idle for 3 days');
  });

  describe('across DST in Europe/Berlin', () => {
    it('spring forward (Sunday 29 March 2026, 02:00 CET to 03:00 CEST)', () => {
      // Friday 19:40 CET to Monday 08:30 CEST: a 60-hour weekend, still one weekend.
      expect(say('2026-03-27T18:40:00Z', '2026-03-30T06:30:00Z', 'Europe/Berlin')).toBe('idle all weekend');
      // 01:30 CET to 12:00 CEST the same day.
      expect(say('2026-03-29T00:30:00Z', '2026-03-29T10:00:00Z', 'Europe/Berlin')).toBe('idle since 01:30');
      // Saturday 23:30 CET to Monday 00:30 CEST: 24 hours later, but two calendar days.
      expect(say('2026-03-28T22:30:00Z', '2026-03-29T22:30:00Z', 'Europe/Berlin')).toBe('idle since 23:30 on Saturday');
    });

    it('fall back (Sunday 25 October 2026, 03:00 CEST to 02:00 CET)', () => {
      // 02:30 happens twice: both read 02:30.
      expect(say('2026-10-25T00:30:00Z', '2026-10-25T09:00:00Z', 'Europe/Berlin')).toBe('idle since 02:30');
      expect(say('2026-10-25T01:30:00Z', '2026-10-25T09:00:00Z', 'Europe/Berlin')).toBe('idle since 02:30');
      // 00:30 CEST to 23:30 CET: 24 hours, yet the same 25-hour day.
      expect(say('2026-10-24T22:30:00Z', '2026-10-25T22:30:00Z', 'Europe/Berlin')).toBe('idle since 00:30');
      // Friday 19:40 CEST to Monday 09:00 CET.
      expect(say('2026-10-23T17:40:00Z', '2026-10-26T08:00:00Z', 'Europe/Berlin')).toBe('idle all weekend');
    });
  });
});
