import catalogJson from './gpu-prices.json' with { type: 'json' };
import type { CloudProvider, DroppedPrice, GpuPrice, PriceCatalog } from '../domain/price-catalog.js';
import { dropOutOfOrder } from './price-order.js';

// The JSON is built by scripts/build-price-catalog.ts from public price tables (see SOURCES.md here).
// It is imported, not read from disk, so tsc copies it into dist/ next to the compiled loader.

const PROVIDERS: readonly string[] = ['aws', 'gcp', 'azure'];

function toEntry(raw: unknown, index: number): GpuPrice {
  const e = raw as Record<string, unknown>;
  const ok =
    typeof e === 'object' &&
    e !== null &&
    PROVIDERS.includes(String(e.provider)) &&
    typeof e.instanceType === 'string' &&
    typeof e.gpuModel === 'string' &&
    typeof e.gpuCount === 'number' &&
    (e.gpuMemoryGiB === null || typeof e.gpuMemoryGiB === 'number') &&
    typeof e.vcpus === 'number' &&
    typeof e.memoryGiB === 'number' &&
    typeof e.region === 'string' &&
    typeof e.onDemandHourly === 'number' &&
    (e.spotHourly === null || typeof e.spotHourly === 'number');
  if (!ok)
    throw new Error(
      `burnrate_price_catalog_invalid: entry ${index} of gpu-prices.json is malformed; rebuild it with scripts/build-price-catalog.ts`,
    );
  const entry = e as unknown as GpuPrice;
  return Object.freeze({ ...entry, spotHourly: plausibleSpot(entry.onDemandHourly, entry.spotHourly) });
}

/** Spot discounts seen on real markets: a price outside them is a data error, not a bargain. */
export const SPOT_DISCOUNT = { min: 0.2, max: 0.92 } as const;

/**
 * A spot price only when its discount is plausible: between 20% and 92% off on-demand. Public
 * tables carry some that are not (a3 spot 17% off, spot equal to on-demand); those would price
 * spot advice that is not worth a reclaim, so they are treated as unknown.
 */
export function plausibleSpot(onDemandHourly: number, spotHourly: number | null): number | null {
  if (spotHourly === null || onDemandHourly <= 0) return null;
  const discount = 1 - spotHourly / onDemandHourly;
  return discount >= SPOT_DISCOUNT.min && discount <= SPOT_DISCOUNT.max ? spotHourly : null;
}

const keyOf = (provider: string, instanceType: string, region: string) => `${provider}|${instanceType}|${region}`;

/** Wraps a list of entries with lookups (tests can pass their own entries). */
export function createPriceCatalog(entries: readonly GpuPrice[], dropped: readonly DroppedPrice[] = []): PriceCatalog {
  const byKey = new Map(entries.map((e) => [keyOf(e.provider, e.instanceType, e.region), e] as const));
  return {
    entries,
    dropped,
    priceOf: (provider, instanceType, region) => byKey.get(keyOf(provider, instanceType, region)),
    cheapestRegionOf: (provider, instanceType) =>
      entries
        .filter((e) => e.provider === provider && e.instanceType === instanceType)
        .reduce<GpuPrice | undefined>((best, e) => (!best || e.onDemandHourly < best.onDemandHourly ? e : best), undefined),
    typesIn: (provider, region) =>
      entries
        .filter((e) => e.provider === provider && e.region === region)
        .sort((a, b) => a.onDemandHourly - b.onDemandHourly || a.instanceType.localeCompare(b.instanceType)),
  };
}

let loaded: PriceCatalog | undefined;

/** The committed catalog. Parsed once: it is constant data, not state. */
export function loadPriceCatalog(): PriceCatalog {
  if (!loaded) {
    const raw: unknown = catalogJson;
    if (!Array.isArray(raw)) throw new Error('burnrate_price_catalog_invalid: gpu-prices.json is not a list');
    // Rows that contradict their family's order are data errors, like implausible spot prices.
    const { kept, dropped } = dropOutOfOrder(raw.map(toEntry));
    loaded = createPriceCatalog(Object.freeze(kept), Object.freeze(dropped));
  }
  return loaded;
}

export function priceOf(
  provider: CloudProvider,
  instanceType: string,
  region: string,
  catalog: PriceCatalog = loadPriceCatalog(),
): GpuPrice | undefined {
  return catalog.priceOf(provider, instanceType, region);
}

export function typesIn(provider: CloudProvider, region: string, catalog: PriceCatalog = loadPriceCatalog()): GpuPrice[] {
  return catalog.typesIn(provider, region);
}
