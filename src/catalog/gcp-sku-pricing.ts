import type { DroppedPrice, GpuPrice } from '../domain/price-catalog.js';
import { dropOutOfOrder } from './price-order.js';

/** One hourly Compute Engine SKU price, as much of it as pricing GPU machines needs. */
export interface ComputeSku {
  skuId: string;
  description: string;
  /** OnDemand or Preemptible (spot); commitments are skipped. */
  usageType: 'OnDemand' | 'Preemptible';
  regions: string[];
  /** Price of one unit (an hour of a GPU or core, a GiB-hour of memory). */
  unitPrice: number;
  currency: string;
}

/**
 * How Google prices a GPU machine: its family's core-hour and GiB-hour SKUs plus the GPU's SKU per
 * GPU. Descriptions read "G2 Instance Core running in Iowa", "Nvidia L4 GPU running in Americas";
 * spot SKUs start with "Spot Preemptible" and have usage type Preemptible.
 */
const FAMILIES: { pattern: RegExp; family: string; gpu: RegExp }[] = [
  { pattern: /^a2-(highgpu|megagpu)-/, family: 'A2', gpu: /Nvidia Tesla A100 GPU/ },
  { pattern: /^a2-ultragpu-/, family: 'A2', gpu: /Nvidia (Tesla )?A100 80GB GPU/ },
  { pattern: /^a3-(highgpu|edgegpu)-/, family: 'A3', gpu: /Nvidia H100 80GB GPU/ },
  { pattern: /^a3-megagpu-/, family: 'A3', gpu: /Nvidia H100 80GB Mega GPU/ },
  { pattern: /^a3-ultragpu-/, family: 'A3', gpu: /Nvidia H200 141GB GPU/ },
  { pattern: /^a4-highgpu-/, family: 'A4', gpu: /Nvidia B200 GPU/ },
  { pattern: /^g2-standard-/, family: 'G2', gpu: /Nvidia L4 GPU/ },
];

export interface PriceChange {
  instanceType: string;
  region: string;
  field: 'onDemandHourly' | 'spotHourly';
  before: number | null;
  after: number;
}

export interface RepriceResult {
  entries: GpuPrice[];
  changes: PriceChange[];
  /** Catalog entries left as they were: no SKU for their core, memory or GPU in their region. */
  unpriced: { instanceType: string; region: string; missing: string }[];
  /** GCP entries priced below a type they hold all of: written, but left out when burnrate loads the catalog (price-order.ts). */
  outOfOrder: DroppedPrice[];
}

/** The GCP entries of the catalog repriced from Cloud Catalog SKUs; other providers untouched. */
export function repriceGcp(entries: readonly GpuPrice[], skus: readonly ComputeSku[]): RepriceResult {
  const changes: PriceChange[] = [];
  const unpriced: RepriceResult['unpriced'] = [];
  const find = (pattern: RegExp, region: string, spot: boolean) =>
    skus.find(
      (s) => pattern.test(s.description) && s.regions.includes(region) && (s.usageType === 'Preemptible') === spot && s.currency === 'USD',
    );
  const repriced = entries.map((entry) => {
    if (entry.provider !== 'gcp') return entry;
    const family = FAMILIES.find((f) => f.pattern.test(entry.instanceType));
    if (!family) {
      unpriced.push({ instanceType: entry.instanceType, region: entry.region, missing: 'machine family' });
      return entry;
    }
    const priceOf = (spot: boolean): number | string => {
      const core = find(new RegExp(`${family.family} Instance Core running in`), entry.region, spot);
      const ram = find(new RegExp(`${family.family} Instance Ram running in`), entry.region, spot);
      const gpu = find(family.gpu, entry.region, spot);
      if (!core || !ram || !gpu)
        return [!core && 'core', !ram && 'memory', !gpu && 'GPU'].filter(Boolean).join(', ') + (spot ? ' (spot)' : '');
      return Math.round((core.unitPrice * entry.vcpus + ram.unitPrice * entry.memoryGiB + gpu.unitPrice * entry.gpuCount) * 1e5) / 1e5;
    };
    const onDemand = priceOf(false);
    if (typeof onDemand === 'string') {
      unpriced.push({ instanceType: entry.instanceType, region: entry.region, missing: onDemand });
      return entry;
    }
    const spot = priceOf(true);
    const next = { ...entry, onDemandHourly: onDemand, spotHourly: typeof spot === 'number' ? spot : entry.spotHourly };
    if (next.onDemandHourly !== entry.onDemandHourly)
      changes.push({
        instanceType: entry.instanceType,
        region: entry.region,
        field: 'onDemandHourly',
        before: entry.onDemandHourly,
        after: next.onDemandHourly,
      });
    if (next.spotHourly !== entry.spotHourly && next.spotHourly !== null)
      changes.push({
        instanceType: entry.instanceType,
        region: entry.region,
        field: 'spotHourly',
        before: entry.spotHourly,
        after: next.spotHourly,
      });
    return next;
  });
  const outOfOrder = dropOutOfOrder(repriced).dropped.filter((d) => d.provider === 'gcp');
  return { entries: repriced, changes, unpriced, outOfOrder };
}
