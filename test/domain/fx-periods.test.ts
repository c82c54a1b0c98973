import { describe, expect, it } from 'vitest';
import { conversionNote, convert, totalsIn, withBillRates, type BillRate } from '../../src/domain/fx.js';

// Each billing period's amounts are converted at that period's rate: the rate its own bill used,
// or burnrate.yml's dated table; a period with neither takes the nearest period's.

/** A FOCUS 1.2 bill in yen priced in dollars: `yen` billed was `usd` at the pricing currency. */
const bill = (billingPeriod: string, yen: number, usd: number): BillRate => ({
  billingPeriod,
  currency: 'JPY',
  pricingCurrency: 'USD',
  effective: yen,
  pricingEffective: usd,
});

describe('exchange rates per billing period', () => {
  const bills = [bill('2026-10', 100_000, 700), bill('2026-11', 100_000, 670)];

  it("converts each period's amount at its own bill's rate, never at the latest", () => {
    const fx = withBillRates({ base: 'USD', rates: {} }, bills);
    expect(convert(30_000, 'JPY', 'USD', fx, '2026-10')).toBeCloseTo(30_000 * 0.007, 9);
    expect(convert(30_000, 'JPY', 'USD', fx, '2026-11')).toBeCloseTo(30_000 * 0.0067, 9);
    // December has no bill of its own yet: November's, the latest before it.
    expect(convert(30_000, 'JPY', 'USD', fx, '2026-12')).toBeCloseTo(30_000 * 0.0067, 9);
    // September is before every bill: October's, the first after it.
    expect(convert(30_000, 'JPY', 'USD', fx, '2026-09')).toBeCloseTo(30_000 * 0.007, 9);
  });

  it('lets a dated rate in burnrate.yml win for its period, and a flat one for every period', () => {
    const dated = withBillRates({ base: 'USD', rates: {}, periods: { '2026-10': { JPY: 0.0069 } } }, bills);
    expect(convert(1_000, 'JPY', 'USD', dated, '2026-10')).toBeCloseTo(6.9, 9);
    expect(convert(1_000, 'JPY', 'USD', dated, '2026-11')).toBeCloseTo(6.7, 9);
    const flat = withBillRates({ base: 'USD', rates: { JPY: 0.0065 } }, bills);
    expect(convert(1_000, 'JPY', 'USD', flat, '2026-10')).toBeCloseTo(6.5, 9);
    expect(convert(1_000, 'JPY', 'USD', flat, '2026-11')).toBeCloseTo(6.5, 9);
  });

  it('adds totals of two periods each at its rate, and says so', () => {
    const fx = withBillRates({ base: 'USD', rates: {} }, bills);
    const { rows, leftOut } = totalsIn(
      [
        { key: 'vision', currency: 'JPY', period: '2026-10', billed: 10_000, effective: 10_000 },
        { key: 'vision', currency: 'JPY', period: '2026-11', billed: 20_000, effective: 20_000 },
        { key: 'vision', currency: 'USD', period: '2026-11', billed: 5, effective: 5 },
      ],
      'USD',
      fx,
    );
    expect(leftOut).toEqual([]);
    expect(rows[0]!.effective).toBeCloseTo(10_000 * 0.007 + 20_000 * 0.0067 + 5, 9);
    expect(conversionNote(fx, 'JPY', 'USD', ['2026-11'])).toBe('JPY converted at 0.0067 USD (rates of the 2026-11 bill)');
    expect(conversionNote(fx, 'JPY', 'USD', ['2026-10', '2026-11'])).toBe(
      "JPY converted at each billing period's own rate (0.0067–0.007 USD)",
    );
  });

  it('leaves a currency out when no period and no setting gives it a rate', () => {
    const fx = withBillRates({ base: 'USD', rates: {} }, []);
    expect(convert(1_000, 'JPY', 'USD', fx, '2026-11')).toBeNull();
  });
});
