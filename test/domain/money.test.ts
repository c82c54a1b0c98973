import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../src/domain/money.js';

describe('money as people read it', () => {
  it('has one format wherever figures are read or added up: grouped, with cents', () => {
    expect(formatMoney(12_345.678, 'USD')).toBe('$12,345.68');
    expect(formatMoney(498.8, 'USD')).toBe('$498.80');
    expect(formatMoney(-200, 'USD')).toBe('-$200.00');
    expect(formatMoney(980, 'EUR')).toBe('€980.00');
    // A yen has no minor unit: never "¥30,000.00".
    expect(formatMoney(30_000, 'JPY')).toBe('¥30,000');
  });

  it('is compact only where asked (charts, headlines), in whole units under a thousand so bars never mix styles', () => {
    const bars = [5_412, 498.8, 718, 12_345, 1_234_567, 999.4, 999.6].map((n) => formatMoney(n, 'USD', { compact: true }));
    expect(bars).toEqual(['$5.4K', '$499', '$718', '$12.3K', '$1.2M', '$999', '$1K']);
    expect(formatMoney(180_000, 'JPY', { compact: true })).toBe('¥180K');
  });
});
