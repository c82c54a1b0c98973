import { describe, expect, it } from 'vitest';
import { parseAmount } from '../../src/domain/amount.js';
import { parseBudgetForm } from '../../src/domain/budget-form.js';
import { weekdayOf, addDays, parseDay } from '../../src/domain/period.js';

describe('amounts as people write them', () => {
  it.each([
    ['50000', 50000],
    ['50,000', 50000],
    ['50k', 50000],
    ['$1.5m', 1_500_000],
    ['12.50', 12.5],
  ])('%s is %d', (text, value) => expect(parseAmount(text)).toBe(value));

  it.each(['5k5', '-3', '0', 'lots', '', '1e6'])('%j is not an amount', (text) => expect(parseAmount(text)).toBeNull());
});

describe('the budget form', () => {
  it('returns the values, thresholds sorted and de-duplicated', () => {
    expect(parseBudgetForm({ monthly: '60k', weekly: '', thresholds: '100, 50 80%, 50' })).toEqual({
      ok: true,
      value: { monthly: 60000, weekly: null, thresholds: [50, 80, 100] },
    });
  });

  it('names the problem of every bad field', () => {
    expect(parseBudgetForm({ monthly: 'lots', thresholds: '50, x' })).toEqual({
      ok: false,
      errors: {
        monthly: '"lots" is not an amount: write 50000, 50k or 1.2m',
        thresholds: 'Write percentages between 1 and 1000, e.g. 50, 80, 100.',
      },
    });
    expect(parseBudgetForm({})).toEqual({ ok: false, errors: { monthly: 'Give a monthly or a weekly budget (or both).' } });
  });
});

describe('weekdayOf', () => {
  it('agrees with Date for every day of four years', () => {
    for (let day = '2024-01-01'; day < '2028-01-01'; day = addDays(day, 1)) expect(weekdayOf(day)).toBe(parseDay(day).getUTCDay());
  });
});
