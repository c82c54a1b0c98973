import { describe, expect, it } from 'vitest';
import { MAX_PERIOD_DAYS, parseMonth } from '../../src/domain/calendar-range.js';
import { isoWeekLabel, monthOf, parsePeriod } from '../../src/domain/period.js';
import { errorOf } from '../support/error-of.js';

const TODAY = '2026-11-18';

describe('periods and months within the years burnrate answers about', () => {
  it('makes a month on its digits: years below 100 are not moved to the 1900s, December ends in January', () => {
    expect(monthOf('0042-01-15')).toEqual({ start: '0042-01-01', end: '0042-02-01' });
    expect(monthOf('0099-12-31')).toEqual({ start: '0099-12-01', end: '0100-01-01' });
    expect(monthOf('2026-12-05')).toEqual({ start: '2026-12-01', end: '2027-01-01' });
    expect(monthOf('2028-02-29')).toEqual({ start: '2028-02-01', end: '2028-03-01' });
    // 0050-01-01 is a Saturday (proleptic Gregorian): its ISO week is 0049's 52nd, as Python's isocalendar() says.
    expect(isoWeekLabel('0050-01-01')).toBe('0049-W52');
    expect(isoWeekLabel('2026-11-18')).toBe('2026-W47');
  });

  it('takes the first and last month and day of the range, and a range of exactly MAX_PERIOD_DAYS', () => {
    expect(parsePeriod('2000-01', TODAY)).toEqual({ start: '2000-01-01', end: '2000-02-01' });
    expect(parsePeriod('2100-12', TODAY)).toEqual({ start: '2100-12-01', end: '2101-01-01' });
    expect(parsePeriod('2100-12-31', TODAY)).toEqual({ start: '2100-12-31', end: '2101-01-01' });
    // 2024-01-01 .. 2026-12-31: 366 + 365 + 365 days, both ends included.
    expect(MAX_PERIOD_DAYS).toBe(1_096);
    expect(parsePeriod('2024-01-01..2026-12-31', TODAY)).toEqual({ start: '2024-01-01', end: '2027-01-01' });
    expect(parseMonth(' 2026-11 ')).toBe('2026-11');
  });

  it.each(['0042-01', '0000-01', '1999-12', '2101-01', '9999-12', '0042-01-01', '1999-12-31..2000-01-05', '2100-12-30..2101-01-02'])(
    'refuses %s, naming the years to write instead',
    (text) => {
      const error = errorOf(() => parsePeriod(text, TODAY));
      expect(error.code).toBe('burnrate_period_invalid');
      expect(error.message).toBe(`period "${text}" is outside the years burnrate answers about`);
      expect(error.hint).toBe('Give days from 2000-01-01 to 2100-12-31, e.g. 2026-11 or 2026-11-01..2026-11-15.');
    },
  );

  it('refuses a range longer than three years, saying how long it was', () => {
    const error = errorOf(() => parsePeriod('2024-01-01..2027-01-01', TODAY));
    expect(error.message).toBe('period "2024-01-01..2027-01-01" is 1097 days long');
    expect(error.hint).toContain('at most 1096 days');
  });

  it.each([
    ['0042-01', '0042-01 is outside the years burnrate answers about', 'Write a month from 2000-01 to 2100-12, e.g. 2026-11.'],
    ['9999-12', '9999-12 is outside the years burnrate answers about', 'Write a month from 2000-01 to 2100-12, e.g. 2026-11.'],
    ['2026-13', '"2026-13" is not a month', 'Write it as YYYY-MM, e.g. 2026-11.'],
    ['1e400', '"1e400" is not a month', 'Write it as YYYY-MM, e.g. 2026-11.'],
    ['', '"" is not a month', 'Write it as YYYY-MM, e.g. 2026-11.'],
  ])('parseMonth refuses %j', (text, message, hint) => {
    const error = errorOf(() => parseMonth(text));
    expect(error).toMatchObject({ code: 'burnrate_month_invalid', message, hint, exitCode: 2 });
  });
});
