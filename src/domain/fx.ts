import type { CurrencyTotal, SpendTotal } from './spend-totals.js';

/** Exchange rates: what one unit of each currency is worth in `base`, as of `asOf`. */
export interface FxRates {
  base: string;
  asOf?: string | undefined;
  rates: Readonly<Partial<Record<string, number>>>;
  /** Currencies whose rate comes from a bill (FOCUS pricing currency), with that bill's billing period. */
  fromBill?: Readonly<Partial<Record<string, string>>>;
}

/**
 * The exchange rate a bill used: in `billingPeriod`, `effective` in the billing currency was
 * `pricingEffective` in the pricing currency (FOCUS 1.2 PricingCurrencyEffectiveCost), summed.
 */
export interface BillRate {
  billingPeriod: string;
  currency: string;
  pricingCurrency: string;
  effective: number;
  pricingEffective: number;
}

/** A rate as people write it: four significant digits, no trailing zeros (0.0067, 1.08, 151.2, 1350). */
export function formatRate(rate: number): string {
  return rate.toLocaleString('en-US', { maximumSignificantDigits: 4, useGrouping: false });
}

/** "JPY converted at 0.0067 USD (rates of 2026-11-30)": said wherever converted amounts are shown. */
export function convertedNote(currency: string, rate: number, to: string, source: string | null): string {
  return `${currency} converted at ${formatRate(rate)} ${to}${source ? ` (rates of ${source})` : ''}`;
}

/** Where a currency's rate comes from, for the line beside a converted amount: a date, or a bill. */
export function rateSource(fx: FxRates, currency: string): string | null {
  const bill = fx.fromBill?.[currency];
  return bill ? `the ${bill} bill` : (fx.asOf ?? null);
}

/**
 * burnrate.yml's rates, completed with the rates bills used: a currency burnrate.yml gives no rate
 * for takes the rate of the latest billing period whose bill priced it in the base currency (or
 * billed the base currency for prices in it). Configured rates always win: they are a decision.
 */
export function withBillRates(fx: FxRates, bills: readonly BillRate[]): FxRates {
  const rates: Partial<Record<string, number>> = {};
  const fromBill: Partial<Record<string, string>> = {};
  const latestFirst = [...bills].sort((a, b) => (a.billingPeriod < b.billingPeriod ? 1 : a.billingPeriod > b.billingPeriod ? -1 : 0));
  for (const bill of latestFirst) {
    if (bill.effective === 0 || bill.pricingEffective === 0) continue;
    // One unit of the billing currency is worth pricingEffective / effective of the pricing currency.
    const [currency, rate] =
      bill.pricingCurrency === fx.base
        ? [bill.currency, bill.pricingEffective / bill.effective]
        : bill.currency === fx.base
          ? [bill.pricingCurrency, bill.effective / bill.pricingEffective]
          : [null, 0];
    if (currency === null || currency === fx.base || fx.rates[currency] !== undefined || rates[currency] !== undefined) continue;
    if (!(rate > 0)) continue;
    rates[currency] = rate;
    fromBill[currency] = bill.billingPeriod;
  }
  if (Object.keys(rates).length === 0) return fx;
  return { ...fx, rates: { ...fx.rates, ...rates }, fromBill: { ...fx.fromBill, ...fromBill } };
}

/** The rate of one unit of `currency` in the base currency; null when burnrate.yml gives none. */
function rateOf(fx: FxRates, currency: string): number | null {
  return currency === fx.base ? 1 : (fx.rates[currency] ?? null);
}

/**
 * `amount` of `from` in `to`, through the base currency; the amount itself when the currencies are
 * the same; null when a rate is missing (the caller says which, and never adds the amount as is).
 */
export function convert(amount: number, from: string, to: string, fx: FxRates): number | null {
  if (from === to) return amount;
  const fromRate = rateOf(fx, from);
  const toRate = rateOf(fx, to);
  return fromRate === null || toRate === null ? null : (amount * fromRate) / toRate;
}

/** The currencies among `currencies` that cannot be converted to `to`: the rates to add to burnrate.yml. */
export function missingRates(currencies: Iterable<string>, to: string, fx: FxRates): string[] {
  return [...new Set(currencies)].filter((c) => convert(1, c, to, fx) === null).sort();
}

/**
 * Amounts in several currencies, all in `to`: the lines converted, and the currencies that could
 * not be (their lines left out, for the caller to name rather than add as they are).
 */
export function inCurrency<T extends { currency: string; billed: number; effective: number }>(
  lines: readonly T[],
  to: string,
  fx: FxRates,
): { lines: T[]; missing: string[] } {
  const converted: T[] = [];
  for (const line of lines) {
    const rate = convert(1, line.currency, to, fx);
    if (rate !== null) converted.push({ ...line, currency: to, billed: line.billed * rate, effective: line.effective * rate });
  }
  return {
    lines: converted,
    missing: missingRates(
      lines.map((l) => l.currency),
      to,
      fx,
    ),
  };
}

/**
 * Totals kept per currency, as totals in `to`: each key's amounts converted and added. A currency
 * without a rate is left out and reported with its own amount, for the caller to name: a total
 * never silently adds yen to dollars. The order is the input's (largest first), re-sorted by
 * effective cost when amounts were converted, or by key for days.
 */
export function totalsIn(
  totals: readonly CurrencyTotal[],
  to: string,
  fx: FxRates,
  order: 'effective' | 'key' = 'effective',
): { rows: SpendTotal[]; leftOut: { currency: string; effective: number }[] } {
  const byKey = new Map<string, SpendTotal>();
  const leftOut = new Map<string, number>();
  for (const total of totals) {
    const rate = convert(1, total.currency, to, fx);
    if (rate === null) {
      leftOut.set(total.currency, (leftOut.get(total.currency) ?? 0) + total.effective);
      continue;
    }
    const sum = byKey.get(total.key) ?? { key: total.key, billed: 0, effective: 0 };
    sum.billed += total.billed * rate;
    sum.effective += total.effective * rate;
    byKey.set(total.key, sum);
  }
  const rows = [...byKey.values()];
  rows.sort(
    order === 'key'
      ? (a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
      : (a, b) => b.effective - a.effective || (a.key < b.key ? -1 : 1),
  );
  return {
    rows,
    leftOut: [...leftOut].map(([currency, effective]) => ({ currency, effective })).sort((a, b) => (a.currency < b.currency ? -1 : 1)),
  };
}
