import type { Deps } from '../deps.js';
import { conversionNote, convert, totalsIn, type FxRates } from '../domain/fx.js';
import { formatMoney, roundMicros } from '../domain/money.js';
import { incurredPeriod, workingDataThrough } from '../domain/data-through.js';
import { failingSources } from '../domain/staleness.js';
import { toDay, type Period } from '../domain/period.js';
import type { SpendDimension } from '../domain/spend.js';
import type { CurrencyTotal, SpendFilter, SpendTotal, TotalsPart } from '../domain/spend-totals.js';
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
  /** The days read: the period asked for, up to the data's end on the charge basis. */
  read: Period;
  /** With filter.countRows: the figure's parts per currency and billing period, as converted and added here. */
  parts?: TotalsPart[];
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
    deps.store.spend.totals({ ...filter, period, byPeriod: true, countRows: filter.countRows === true }, by),
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
    read: period,
    ...(filter.countRows ? { parts: partsOf(parts, to, fx) } : {}),
  };
}

/**
 * The store's totals per currency and billing period, each with the rate totalsIn converted it at
 * (convert, at its period) and what it added: how a figure was computed, from its own rows.
 */
function partsOf(totals: readonly CurrencyTotal[], to: string, fx: FxRates): TotalsPart[] {
  const byPart = new Map<string, TotalsPart>();
  for (const t of totals) {
    const key = `${t.currency}\u0000${t.period}`;
    const part = byPart.get(key) ?? {
      currency: t.currency,
      billingPeriod: t.period!,
      rows: 0,
      billed: 0,
      effective: 0,
      rate: convert(1, t.currency, to, fx, t.period),
      adds: { billed: 0, effective: 0 },
    };
    part.rows += t.rowCount ?? 0;
    part.billed += t.billed;
    part.effective += t.effective;
    byPart.set(key, part);
  }
  return [...byPart.values()]
    .map((p) => ({
      ...p,
      billed: roundMicros(p.billed),
      effective: roundMicros(p.effective),
      adds: { billed: roundMicros(p.billed * (p.rate ?? 0)), effective: roundMicros(p.effective * (p.rate ?? 0)) },
    }))
    .sort((a, b) => a.billingPeriod.localeCompare(b.billingPeriod) || a.currency.localeCompare(b.currency));
}

/**
 * The days of `period` incurred so far, by the rule the budget check's "spent so far" follows
 * (incurredPeriod): up to the end of the data of the sources that work.
 */
async function incurredPart(deps: Pick<Deps, 'config' | 'store' | 'clock'>, period: Period): Promise<Period> {
  const [freshness, failures] = await Promise.all([deps.store.freshness.list(), deps.store.freshness.failures()]);
  return incurredPeriod(period, workingDataThrough(freshness, failingSources(deps.config, failures)), toDay(deps.clock()));
}
