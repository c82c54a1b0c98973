import type { Deps } from '../deps.js';
import { conversionNote, totalsIn, type FxRates } from '../domain/fx.js';
import { formatMoney, roundMicros } from '../domain/money.js';
import { incurredPeriod, workingDataThrough } from '../domain/data-through.js';
import { failingSources } from '../domain/staleness.js';
import { toDay, type Period } from '../domain/period.js';
import type { SpendDimension } from '../domain/spend.js';
import type { SpendFilter, SpendTotal } from '../domain/spend-totals.js';
import { loadFxRates } from './fx-rates.js';

/** Spend totals in one currency, as every surface shows them. */
export interface ConvertedTotals {
  currency: string;
  /** One row per key, in `currency`: largest first, or by key for days. */
  rows: SpendTotal[];
  total: { billed: number; effective: number };
  /** The currencies the store holds for these keys, converted or not. */
  currencies: string[];
  /** Amounts left out for want of a rate, in their own currency. */
  leftOut: { currency: string; effective: number }[];
  /** What a reader must know: which currencies were converted at which rates, and what was left out for want of one. */
  notes: string[];
}

/**
 * The one read of spend totals: each key's amounts per currency and billing period, converted at
 * that period's rate (November's invoice at November's rate) into `currency`, then added. `currency`
 * may be chosen from the currencies the data holds (the spend command's "the data's own when it
 * has one"). A currency without a rate is left out and named, never added as it is.
 */
export async function loadSpendTotals(
  deps: Pick<Deps, 'config' | 'store' | 'clock'>,
  filter: SpendFilter,
  by: SpendDimension,
  currency: string | ((held: readonly string[], fx: FxRates) => string),
  rates?: FxRates,
): Promise<ConvertedTotals> {
  const period = filter.basis === 'invoice' ? filter.period : await incurredPart(deps, filter.period);
  const [parts, fx] = await Promise.all([
    deps.store.spend.totals({ ...filter, period, byPeriod: true }, by),
    rates ? Promise.resolve(rates) : loadFxRates(deps),
  ]);
  const currencies = [...new Set(parts.map((t) => t.currency))].sort();
  const to = typeof currency === 'string' ? currency : currency(currencies, fx);
  const converted = totalsIn(parts, to, fx, by === 'day' ? 'key' : 'effective');
  // Amounts leave the read model in micro-units: the doubles' noise stops here (see roundMicros),
  // and the total is the sum of the lines shown.
  const rows = converted.rows.map((r) => ({ ...r, billed: roundMicros(r.billed), effective: roundMicros(r.effective) }));
  const total = rows.reduce((t, r) => ({ billed: t.billed + r.billed, effective: t.effective + r.effective }), {
    billed: 0,
    effective: 0,
  });
  const missing = new Set(converted.leftOut.map((l) => l.currency));
  const periodsOf = (c: string) => [...new Set(parts.filter((p) => p.currency === c).map((p) => p.period!))].sort();
  const notes = [
    ...currencies.filter((c) => c !== to && !missing.has(c)).map((c) => conversionNote(fx, c, to, periodsOf(c))),
    ...converted.leftOut.map(
      (l) =>
        `${formatMoney(l.effective, l.currency)} (${l.currency}) not included: no exchange rate to ${to} (add fx.rates.${l.currency} to burnrate.yml)`,
    ),
  ];
  return {
    currency: to,
    rows,
    total: { billed: roundMicros(total.billed), effective: roundMicros(total.effective) },
    currencies,
    leftOut: converted.leftOut.map((l) => ({ ...l, effective: roundMicros(l.effective) })),
    notes,
  };
}

/**
 * The days of `period` incurred so far, by the rule the budget check's "spent so far" follows
 * (incurredPeriod): up to the end of the data of the sources that work.
 */
async function incurredPart(deps: Pick<Deps, 'config' | 'store' | 'clock'>, period: Period): Promise<Period> {
  const [freshness, failures] = await Promise.all([deps.store.freshness.list(), deps.store.freshness.failures()]);
  return incurredPeriod(period, workingDataThrough(freshness, failingSources(deps.config, failures)), toDay(deps.clock()));
}
