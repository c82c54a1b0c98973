import type { CloudProvider, PriceCatalog } from '../../domain/price-catalog.js';

/** Where and what an instance is, as the inventory knows it. */
export interface PricedInstance {
  provider: CloudProvider;
  instanceType: string;
  region: string;
  lifecycle: 'on-demand' | 'spot';
}

/**
 * The monthly saving of running a line's on-demand instance on spot instead: the line's cost times
 * the catalog's spot discount for its type and region. null when there is nothing to say (not an
 * instance, already spot or committed, or no spot price in the catalog).
 */
export function spotSaving(
  cost: number,
  pricing: string | null,
  instance: PricedInstance | undefined,
  catalog: PriceCatalog,
): number | null {
  if (!instance || instance.lifecycle !== 'on-demand' || pricing === 'Committed' || pricing === 'Dynamic') return null;
  const price = catalog.priceOf(instance.provider, instance.instanceType, instance.region);
  if (!price || price.spotHourly === null || price.onDemandHourly <= 0) return null;
  const discount = 1 - price.spotHourly / price.onDemandHourly;
  return discount > 0 ? Math.round(cost * discount * 100) / 100 : null;
}
