import { describe, expect, it } from 'vitest';
import catalogJson from '../../src/catalog/gpu-prices.json' with { type: 'json' };
import { createPriceCatalog, loadPriceCatalog } from '../../src/catalog/price-catalog.js';
import { droppedNotesFor, dropOutOfOrder } from '../../src/catalog/price-order.js';
import { DEFAULT_RECOMMENDATIONS_POLICY } from '../../src/checks/recommend/recommend-policy.js';
import { rightSizeRecommendation } from '../../src/checks/recommend/right-size.js';
import type { GpuInstance } from '../../src/domain/gpu-inventory.js';
import type { GpuPrice } from '../../src/domain/price-catalog.js';

const row = (instanceType: string, gpuCount: number, gpuMemoryGiB: number | null, memoryGiB: number, onDemandHourly: number): GpuPrice => ({
  provider: 'gcp',
  instanceType,
  gpuModel: 'A100',
  gpuCount,
  gpuMemoryGiB,
  vcpus: 12 * gpuCount,
  memoryGiB,
  region: 'us-central1',
  onDemandHourly,
  spotHourly: null,
});

describe('catalog rows that contradict their family order', () => {
  it('drops a type priced below one it holds all of, with a note naming both', () => {
    const forty = row('a2-highgpu-1g', 1, 40, 85, 3.67339);
    const eighty = row('a2-ultragpu-1g', 1, 80, 170, 2.94582);
    const { kept, dropped } = dropOutOfOrder([forty, eighty]);
    expect(kept).toEqual([forty]);
    expect(dropped).toHaveLength(1);
    expect(dropped[0]).toMatchObject({ provider: 'gcp', instanceType: 'a2-ultragpu-1g', region: 'us-central1' });
    expect(dropped[0]!.note).toContain('$2.95/h, below a2-highgpu-1g ($3.67/h)');
  });

  it('keeps what is not a contradiction: two 40 GB GPUs below one 80 GB, the same price, an unknown memory, other regions', () => {
    const twoForty = row('a2-highgpu-2g', 2, 80, 170, 5.23612);
    const oneEighty = row('a2-ultragpu-1g', 1, 80, 170, 6.20248);
    const same = row('a2-ultragpu-1g-b', 1, 80, 340, 6.20248);
    const unknown = row('a2-odd-1g', 1, null, 340, 1);
    const elsewhere = { ...row('a2-ultragpu-2g', 2, 160, 340, 1), region: 'europe-west4' };
    const entries = [twoForty, oneEighty, same, unknown, elsewhere];
    expect(dropOutOfOrder(entries)).toEqual({ kept: entries, dropped: [] });
  });

  it('the committed catalog: no A100 80 GB in us-central1 below the 40 GB, and so no false right-size (audit)', () => {
    const catalog = loadPriceCatalog();
    expect(catalog.priceOf('gcp', 'a2-ultragpu-8g', 'us-central1')).toBeUndefined();
    expect(catalog.priceOf('gcp', 'a2-highgpu-8g', 'us-central1')!.onDemandHourly).toBe(29.38708);
    expect(catalog.priceOf('gcp', 'a2-ultragpu-8g', 'europe-west4')).toBeDefined();
    expect(catalog.dropped!.map((d) => `${d.instanceType} ${d.region}`)).toContain('a2-ultragpu-8g us-central1');
    // A report on a fleet in us-central1 carries the note; one on AWS in us-east-1 does not.
    expect(droppedNotesFor(catalog, [{ provider: 'gcp', region: 'us-central1' }]).join(' ')).toContain(
      'a2-ultragpu-8g ($23.57/h, below a2-highgpu-8g at $29.39/h)',
    );
    expect(droppedNotesFor(catalog, [{ provider: 'aws', region: 'us-east-1' }])).toEqual([]);

    // An 8× A100 40 GB training box holding 100 GiB at 20% (40% at its busiest), running all week.
    const box: GpuInstance = {
      instanceId: '2180429006554858957',
      name: 'research-a2-8g',
      provider: 'gcp',
      region: 'us-central1',
      instanceType: 'a2-highgpu-8g',
      gpuModel: 'A100',
      gpuCount: 8,
      gpuMemoryGiB: 320,
      hourlyPrice: 29.38708,
      lifecycle: 'on-demand',
      team: 'ml-research',
      ownerTag: 'ml-research',
      workload: 'training',
      protected: false,
      owner: null,
      tags: {},
    };
    const usage = { runningHours: 168, windowHours: 168, meanUtil: 20, p95Util: 40, memoryHighWaterGiB: 100 };
    // The table as published: a2-ultragpu-8g at $23.56656/h "saves" ($29.38708 − $23.56656) × 730 h = $4,249.00 a month.
    const published = createPriceCatalog(catalogJson as GpuPrice[]);
    const falseSaving = rightSizeRecommendation(box, usage, published, DEFAULT_RECOMMENDATIONS_POLICY)!;
    expect(falseSaving.proposed.instanceType).toBe('a2-ultragpu-8g');
    expect(falseSaving.monthlySaving).toBeCloseTo((29.38708 - 23.56656) * 730, 2);
    // As loaded: nothing 8× A100-or-newer on NVLink in us-central1 is cheaper, so no recommendation.
    expect(rightSizeRecommendation(box, usage, catalog, DEFAULT_RECOMMENDATIONS_POLICY)).toBeNull();
  });
});
