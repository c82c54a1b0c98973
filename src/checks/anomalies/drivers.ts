import type { AnomalyDimension, AnomalyDriver } from '../../domain/anomaly-finding.js';

/** One dimension's spend per key on the anomalous day, and per average day before it. */
export interface DimensionTotals {
  dimension: AnomalyDimension;
  day: ReadonlyMap<string, number>;
  usual: ReadonlyMap<string, number>;
}

/** How many drivers each dimension names. */
export const DRIVERS_PER_DIMENSION = 3;
/** A rise under a cent is no driver. */
const CENT = 0.005;

/**
 * What moved: per dimension, the keys whose spend rose most against their usual day, each with
 * its share of the team's excess, largest first. Pure.
 */
export function rankDrivers(totals: readonly DimensionTotals[], excess: number): AnomalyDriver[] {
  return totals.flatMap(({ dimension, day, usual }) => {
    const keys = new Set([...day.keys(), ...usual.keys()]);
    return [...keys]
      .map((key) => {
        const amount = day.get(key) ?? 0;
        const before = usual.get(key) ?? 0;
        const delta = amount - before;
        return { dimension, key, amount: cents(amount), usual: cents(before), delta: cents(delta), share: excess > 0 ? delta / excess : 0 };
      })
      .filter((d) => d.delta >= CENT)
      .sort((a, b) => b.delta - a.delta || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .slice(0, DRIVERS_PER_DIMENSION);
  });
}

/** An amount to the cent, as findings keep their figures. */
export const cents = (n: number) => Math.round(n * 100) / 100;
