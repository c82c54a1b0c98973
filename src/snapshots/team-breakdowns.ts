import type { Deps } from '../deps.js';
import type { CategoryDay, CostLine, Priced, UnitKind, UnitTotal } from '../domain/cost-breakdown.js';
import { convert, type FxRates } from '../domain/fx.js';
import type { Period } from '../domain/period.js';
import { loadFxRates } from './fx-rates.js';

/** What the slices of a team's month are converted into: a currency, and the rates (read once per review). */
export interface InCurrency {
  currency: string;
  fx?: FxRates;
}

/** A team's largest usage lines of a period in one currency, most expensive first (net credits are no cost line). */
export async function loadCostLines(deps: Pick<Deps, 'config' | 'store'>, period: Period, team: string, to: InCurrency, limit: number) {
  const [parts, fx] = await read(deps, to, deps.store.breakdowns.costLines(period, team));
  const lines = addConverted(parts, (p) => p.key, to.currency, fx);
  return lines
    .filter((l) => l.effective > 0)
    .sort((a, b) => b.effective - a.effective || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .slice(0, limit)
    .map(({ currency: _c, period: _p, ...line }): CostLine => line);
}

/** A team's effective spend per day and service category in one currency: the review's chart. */
export async function loadCategoryDays(deps: Pick<Deps, 'config' | 'store'>, period: Period, team: string, to: InCurrency) {
  const [parts, fx] = await read(deps, to, deps.store.breakdowns.dailyByCategory(period, team));
  return addConverted(parts, (p) => `${p.day}\u0000${p.category}`, to.currency, fx).map(
    ({ day, category, effective }): CategoryDay => ({ day, category, effective }),
  );
}

/** A team's spend per experiment, run or sweep in one currency, largest first. */
export async function loadUnitTotals(deps: Pick<Deps, 'config' | 'store'>, period: Period, team: string, unit: UnitKind, to: InCurrency) {
  const [parts, fx] = await read(deps, to, deps.store.breakdowns.unitTotals(period, team, unit));
  return addConverted(parts, (p) => p.key, to.currency, fx)
    .map(({ key, effective }): UnitTotal => ({ key, effective }))
    .sort((a, b) => b.effective - a.effective || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

function read<T>(deps: Pick<Deps, 'config' | 'store'>, to: InCurrency, parts: Promise<T>): Promise<[T, FxRates]> {
  return Promise.all([parts, to.fx ? Promise.resolve(to.fx) : loadFxRates(deps)]);
}

/**
 * Parts of one key in several currencies and billing periods, each converted at its period's rate
 * and added, in the order the keys first appear; a part without a rate is left out, never added as it is.
 */
function addConverted<T extends Priced & { effective: number }>(
  parts: readonly T[],
  keyOf: (part: T) => string,
  to: string,
  fx: FxRates,
): T[] {
  const byKey = new Map<string, T>();
  for (const part of parts) {
    const amount = convert(part.effective, part.currency, to, fx, part.period);
    if (amount === null) continue;
    const key = keyOf(part);
    const sum = byKey.get(key);
    byKey.set(key, sum ? { ...sum, effective: sum.effective + amount } : { ...part, currency: to, effective: amount });
  }
  return [...byKey.values()];
}
