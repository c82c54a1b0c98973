import type { CurrencyTotal, SpendTotal } from './spend-totals.js';

/** Exchange rates: what one unit of each currency is worth in `base`, as of `asOf`. */
export interface FxRates {
  base: string;
  asOf?: string | undefined;
  rates: Readonly<Partial<Record<string, number>>>;
  /** Currencies whose rate comes from a bill (FOCUS pricing currency), with that bill's billing period. */
  fromBill?: Readonly<Partial<Record<string, string>>>;
  /**
   * Rates of one billing period (YYYY-MM): burnrate.yml's dated table, else that period's own bill.
   * An amount of a period is converted at its period's rate: November's invoice at November's rate,
   * never at the latest one.
   */
  periods?: Readonly<Record<string, Readonly<Partial<Record<string, number>>>>>;
  /** Where each period's rate came from, for the note beside converted amounts: period -> currency -> source. */
  periodSources?: Readonly<Record<string, Readonly<Partial<Record<string, string>>>>>;
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

/** Built once: toLocaleString builds a formatter on every call, and every converted answer says its rate. */
const RATE_FORMAT = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 4, useGrouping: false });

/** A rate as people write it: four significant digits, no trailing zeros (0.0067, 1.08, 151.2, 1350). */
export function formatRate(rate: number): string {
  return RATE_FORMAT.format(rate);
}

/** "JPY converted at 0.0067 USD (rates of 2026-11-30)": said wherever converted amounts are shown. */
export function convertedNote(currency: string, rate: number, to: string, source: string | null): string {
  return `${currency} converted at ${formatRate(rate)} ${to}${source ? ` (rates of ${source})` : ''}`;
}

/** Where a currency's latest rate comes from, for the line beside a converted amount: a date, or a bill. */
export function rateSource(fx: FxRates, currency: string): string | null {
  const bill = fx.fromBill?.[currency];
  return bill ? `the ${bill} bill` : (fx.asOf ?? null);
}

/**
 * burnrate.yml's rates, completed with the rates bills used. For an amount of billing period P, the
 * rate is the first of: burnrate.yml's dated rate for P (`fx.periods`); burnrate.yml's rate (a
 * decision that holds for every period); P's own bill's rate (it priced the billing currency in the
 * base currency, or billed the base currency for prices in it); the nearest period's rate, dated or
 * billed (the latest before P, else the first after it).
 */
export function withBillRates(fx: FxRates, bills: readonly BillRate[]): FxRates {
  const fromBill: Partial<Record<string, string>> = {};
  const periods: Record<string, Partial<Record<string, number>>> = {};
  const periodSources: Record<string, Partial<Record<string, string>>> = {};
  for (const [period, rates] of Object.entries(fx.periods ?? {})) {
    periods[period] = { ...rates };
    periodSources[period] = Object.fromEntries(Object.keys(rates).map((c) => [c, `burnrate.yml for ${period}`]));
  }
  const latestFirst = [...bills].sort((a, b) => (a.billingPeriod < b.billingPeriod ? 1 : a.billingPeriod > b.billingPeriod ? -1 : 0));
  for (const bill of latestFirst) {
    const rated = billRate(fx.base, bill);
    if (rated === null || fx.rates[rated.currency] !== undefined) continue;
    const { currency, rate } = rated;
    const ofPeriod = (periods[bill.billingPeriod] ??= {});
    if (ofPeriod[currency] !== undefined) continue;
    ofPeriod[currency] = rate;
    (periodSources[bill.billingPeriod] ??= {})[currency] = `the ${bill.billingPeriod} bill`;
    fromBill[currency] ??= bill.billingPeriod;
  }
  if (Object.keys(periods).length === 0) return fx;
  return { ...fx, fromBill: { ...fx.fromBill, ...fromBill }, periods, periodSources };
}

/** The rate one bill used: one unit of its foreign currency in `base`; null when it relates no currency to `base`. */
function billRate(base: string, bill: BillRate): { currency: string; rate: number } | null {
  if (bill.effective === 0 || bill.pricingEffective === 0) return null;
  // One unit of the billing currency is worth pricingEffective / effective of the pricing currency.
  const [currency, rate] =
    bill.pricingCurrency === base
      ? [bill.currency, bill.pricingEffective / bill.effective]
      : bill.currency === base
        ? [bill.pricingCurrency, bill.effective / bill.pricingEffective]
        : [null, 0];
  return currency === null || currency === base || !(rate > 0) ? null : { currency, rate };
}

/** The rate of one unit of `currency` in the base currency for billing period `period` (YYYY-MM); null when none is known. */
function rateOf(fx: FxRates, currency: string, period?: string): number | null {
  return currency === fx.base ? 1 : (ratedAt(fx, currency, period)?.rate ?? null);
}

/** The rate burnrate converts `currency` at in `period` and the period it was dated for (none for a flat rate of burnrate.yml). */
function ratedAt(fx: FxRates, currency: string, period?: string): { rate: number; period?: string } | null {
  const own = period === undefined ? undefined : fx.periods?.[period]?.[currency];
  if (own !== undefined) return { rate: own, period: period! };
  const flat = fx.rates[currency];
  if (flat !== undefined) return { rate: flat };
  const dated = Object.keys(fx.periods ?? {})
    .filter((p) => fx.periods![p]![currency] !== undefined)
    .sort();
  if (dated.length === 0) return null;
  // A period without a rate of its own takes the nearest one's: the latest before it, else the first after.
  const nearest = period === undefined ? dated.at(-1)! : (dated.findLast((p) => p <= period) ?? dated[0]!);
  return { rate: fx.periods![nearest]![currency]!, period: nearest };
}

/**
 * `amount` of `from` in `to`, through the base currency, at the rates of billing period `period`
 * (YYYY-MM; the latest rates when not given); the amount itself when the currencies are the same;
 * null when a rate is missing (the caller says which, and never adds the amount as is).
 */
export function convert(amount: number, from: string, to: string, fx: FxRates, period?: string): number | null {
  if (from === to) return amount;
  const fromRate = rateOf(fx, from, period);
  const toRate = rateOf(fx, to, period);
  return fromRate === null || toRate === null ? null : (amount * fromRate) / toRate;
}

/**
 * The note beside amounts of `periods` converted from `currency` to `to`: the rate and its source
 * when every period shares them ("JPY converted at 0.0067 USD (rates of the 2026-11 bill)"), else
 * the range of the periods' own rates.
 */
export function conversionNote(fx: FxRates, currency: string, to: string, periods: readonly string[]): string {
  const each = (periods.length > 0 ? periods : [undefined]).map((p) => {
    const dated = ratedAt(fx, currency, p)?.period;
    return {
      rate: convert(1, currency, to, fx, p)!,
      source: (dated === undefined ? undefined : fx.periodSources?.[dated]?.[currency]) ?? rateSource(fx, currency),
    };
  });
  const rates = [...new Set(each.map((e) => formatRate(e.rate)))];
  const sources = [...new Set(each.map((e) => e.source))];
  if (rates.length === 1 && sources.length === 1) return convertedNote(currency, each[0]!.rate, to, sources[0]!);
  const sorted = each.map((e) => e.rate).sort((a, b) => a - b);
  return `${currency} converted at each billing period's own rate (${formatRate(sorted[0]!)}–${formatRate(sorted.at(-1)!)} ${to})`;
}

/** The currencies among `currencies` that cannot be converted to `to`: the rates to add to burnrate.yml. */
export function missingRates(currencies: Iterable<string>, to: string, fx: FxRates, period?: string): string[] {
  return [...new Set(currencies)].filter((c) => convert(1, c, to, fx, period) === null).sort();
}

/**
 * Amounts in several currencies, all in `to`: the lines converted, and the currencies that could
 * not be (their lines left out, for the caller to name rather than add as they are).
 */
export function inCurrency<T extends { currency: string; billed: number; effective: number }>(
  lines: readonly T[],
  to: string,
  fx: FxRates,
  period?: string,
): { lines: T[]; missing: string[] } {
  const converted: T[] = [];
  for (const line of lines) {
    const rate = convert(1, line.currency, to, fx, period);
    if (rate !== null) converted.push({ ...line, currency: to, billed: line.billed * rate, effective: line.effective * rate });
  }
  return {
    lines: converted,
    missing: missingRates(
      lines.map((l) => l.currency),
      to,
      fx,
      period,
    ),
  };
}

/**
 * Totals kept per currency (and billing period, where the store split them by it), as totals in
 * `to`: each key's amounts converted at their period's rate and added. A currency
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
    const rate = convert(1, total.currency, to, fx, total.period);
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
