/** Exchange rates: what one unit of each currency is worth in `base`, as of `asOf`. */
export interface FxRates {
  base: string;
  asOf?: string | undefined;
  rates: Readonly<Partial<Record<string, number>>>;
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
