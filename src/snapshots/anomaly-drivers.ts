import type { DimensionTotals } from '../checks/anomalies/drivers.js';
import type { Deps } from '../deps.js';
import type { AnomalyDimension } from '../domain/anomaly-finding.js';
import { convert, type FxRates } from '../domain/fx.js';
import { addDays, type Period } from '../domain/period.js';
import { isExtensionDimension, KUBE_DIMENSIONS, type ExtensionDimension, type SpendDimension } from '../domain/spend.js';
import type { CurrencyTotal } from '../domain/spend-totals.js';
import { loadKubeCost } from './kube-cost.js';
import { kubeKeyOf } from './spend-report.js';

/** The bill's columns a day's spend is broken down by to say why it moved, besides the provider columns the sources keep. */
const BILL_DIMENSIONS: readonly (AnomalyDimension & SpendDimension)[] = ['service', 'resource', 'account', 'region'];

/** Keys that name no value: a line without a region or a kept provider column is no driver. */
const NO_VALUE = new Set(['', '(none)']);

/**
 * A team's spend of `day` per service, resource, sub-account, region, each provider column a FOCUS
 * source keeps (`dimensions`), and its Kubernetes GPU nodes' cost per namespace and workload, each
 * beside its average day over the `usualDays` before `runStart` (the anomaly's first day, so its own
 * days do not raise what is usual), in `currency` (each billing period's part at that period's
 * rate, as the budget snapshot converts the day's total): what the anomaly check names as drivers.
 * A dimension with one and the same value on the day and before (a team in one region) says
 * nothing of why, and is left out.
 */
export async function loadDriverTotals(
  deps: Pick<Deps, 'store' | 'config' | 'clock'>,
  team: string,
  day: string,
  runStart: string,
  usualDays: number,
  currency: string,
  fx: FxRates,
): Promise<DimensionTotals[]> {
  const onDay = { start: day, end: addDays(day, 1) };
  const before = { start: addDays(runStart, -usualDays), end: runStart };
  const days = Math.max(usualDays, 1);
  const dimensions = [...BILL_DIMENSIONS, ...keptColumns(deps.config)];
  const [bill, kube] = await Promise.all([
    Promise.all(
      dimensions.map(async (dimension): Promise<DimensionTotals> => {
        const read = (period: Period) => deps.store.spend.totals({ period, teams: [team], byPeriod: true }, dimension);
        const [dayTotals, usualTotals] = await Promise.all([read(onDay), read(before)]);
        return { dimension, day: inCurrency(dayTotals, currency, fx, 1), usual: inCurrency(usualTotals, currency, fx, days) };
      }),
    ),
    kubeTotals(deps, team, onDay, before, days, currency, fx),
  ]);
  return [...bill, ...kube].filter(saysWhy);
}

/** The provider columns (x_UsageType...) the configured FOCUS sources keep. */
function keptColumns(config: Deps['config']): ExtensionDimension[] {
  return [...new Set(config.sources.flatMap((s) => (s.type === 'focus' ? s.dimensions : [])))].filter(isExtensionDimension);
}

/** The team's Kubernetes GPU nodes' cost by namespace and by workload, on the day and per usual day (USD to `currency`). */
async function kubeTotals(
  deps: Pick<Deps, 'store' | 'config' | 'clock'>,
  team: string,
  onDay: Period,
  before: Period,
  days: number,
  currency: string,
  fx: FxRates,
): Promise<DimensionTotals[]> {
  const [dayCost, usualCost] = await Promise.all([loadKubeCost(deps, onDay), loadKubeCost(deps, before)]);
  if (dayCost.lines.length === 0 && usualCost.lines.length === 0) return [];
  const sums = (cost: typeof dayCost, period: Period, by: (typeof KUBE_DIMENSIONS)[number], divisor: number) => {
    const out = new Map<string, number>();
    for (const line of cost.lines) {
      if (line.team !== team) continue;
      const amount = convert(line.cost, cost.currency, currency, fx, period.start.slice(0, 7));
      if (amount !== null) out.set(kubeKeyOf(line, by), (out.get(kubeKeyOf(line, by)) ?? 0) + amount / divisor);
    }
    return out;
  };
  return KUBE_DIMENSIONS.map((dimension) => ({
    dimension,
    day: sums(dayCost, onDay, dimension, 1),
    usual: sums(usualCost, before, dimension, days),
  }));
}

/**
 * Service and resource are always named (as the bill's first breakdowns); a further dimension only
 * where it tells the day apart: more than one value, or a value new on the day.
 */
function saysWhy({ dimension, day, usual }: DimensionTotals): boolean {
  if (dimension === 'service' || dimension === 'resource') return true;
  const keys = new Set([...day.keys(), ...usual.keys()]);
  return keys.size > 1 || (keys.size === 1 && usual.size === 0);
}

/** Totals per key in one currency, divided by `days`; a part without a rate is left out, never added as is. */
function inCurrency(totals: readonly CurrencyTotal[], currency: string, fx: FxRates, days: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of totals) {
    if (!t.key || NO_VALUE.has(t.key)) continue;
    const amount = convert(t.effective, t.currency, currency, fx, t.period);
    if (amount !== null) out.set(t.key, (out.get(t.key) ?? 0) + amount / days);
  }
  return out;
}
