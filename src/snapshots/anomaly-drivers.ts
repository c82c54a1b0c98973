import type { DimensionTotals } from '../checks/anomalies/drivers.js';
import type { Deps } from '../deps.js';
import type { AnomalyDimension } from '../domain/anomaly-finding.js';
import { convert, type FxRates } from '../domain/fx.js';
import { addDays } from '../domain/period.js';
import type { CurrencyTotal } from '../domain/spend-totals.js';

/** What a day's spend is broken down by to say why it moved. */
const DIMENSIONS: readonly (AnomalyDimension & ('service' | 'resource'))[] = ['service', 'resource'];

/**
 * A team's spend of `day` per service and per resource, beside its average day over the `usualDays`
 * before `runStart` (the anomaly's first day, so its own days do not raise what is usual), in `currency` (each billing period's part at that period's rate, as the budget
 * snapshot converts the day's total): what the anomaly check names as drivers.
 */
export async function loadDriverTotals(
  deps: Pick<Deps, 'store'>,
  team: string,
  day: string,
  runStart: string,
  usualDays: number,
  currency: string,
  fx: FxRates,
): Promise<DimensionTotals[]> {
  const teams = [team];
  const onDay = { start: day, end: addDays(day, 1) };
  const before = { start: addDays(runStart, -usualDays), end: runStart };
  return Promise.all(
    DIMENSIONS.map(async (dimension) => {
      const [dayTotals, usualTotals] = await Promise.all([
        deps.store.spend.totals({ period: onDay, teams, byPeriod: true }, dimension),
        deps.store.spend.totals({ period: before, teams, byPeriod: true }, dimension),
      ]);
      return {
        dimension,
        day: inCurrency(dayTotals, currency, fx, 1),
        usual: inCurrency(usualTotals, currency, fx, Math.max(usualDays, 1)),
      };
    }),
  );
}

/** Totals per key in one currency, divided by `days`; a part without a rate is left out, never added as is. */
function inCurrency(totals: readonly CurrencyTotal[], currency: string, fx: FxRates, days: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of totals) {
    const amount = convert(t.effective, t.currency, currency, fx, t.period);
    if (amount !== null) out.set(t.key, (out.get(t.key) ?? 0) + amount / days);
  }
  return out;
}
