import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildAzure, buildPriceCatalog, formatCatalog, gcpAccelerator, parseCsv } from '../../scripts/build-price-catalog.js';
import { createPriceCatalog, loadPriceCatalog, priceOf, typesIn } from '../../src/catalog/price-catalog.js';

const catalogFile = fileURLToPath(new URL('../../src/catalog/gpu-prices.json', import.meta.url));
const priceTables = fileURLToPath(new URL('../fixtures/gpu_prices/', import.meta.url));

describe('the price catalog', () => {
  const catalog = loadPriceCatalog();

  it('knows p4d.24xlarge in us-east-1: 8 A100 (320 GiB) at the vantage on-demand price, spot from SkyPilot', () => {
    const p4d = priceOf('aws', 'p4d.24xlarge', 'us-east-1');
    expect(p4d).toMatchObject({ gpuModel: 'A100', gpuCount: 8, gpuMemoryGiB: 320, vcpus: 96, memoryGiB: 1152, onDemandHourly: 21.95764 });
    // The median of the three us-east-1 zones in the SkyPilot subset (6.7915, 9.6107, 5.0933): an
    // instance may sit in any of them, so the lowest would overstate its saving.
    expect(p4d?.spotHourly).toBe(6.7915);
    expect(priceOf('aws', 'p4de.24xlarge', 'us-east-1')?.gpuMemoryGiB).toBe(640);
  });

  it('matches the vantage CSV for p4d.24xlarge us-east-1', () => {
    const row = parseCsv(readFileSync(`${priceTables}aws_gpu_instances_vantage_ondemand_reserved.csv`, 'utf8')).find(
      (r) => r.InstanceType === 'p4d.24xlarge' && r.Region === 'us-east-1',
    );
    expect(Number(row?.OnDemandHourlyUSD)).toBeCloseTo(priceOf('aws', 'p4d.24xlarge', 'us-east-1')!.onDemandHourly, 4);
  });

  it('prices a GCP a2-highgpu-1g with its A100 included (the machine row alone excludes it)', () => {
    const a2 = priceOf('gcp', 'a2-highgpu-1g', 'us-central1');
    // machine 0.73948 + one A100 2.93391 (us-central1 rows of the reference price tables)
    expect(a2?.onDemandHourly).toBeCloseTo(0.73948 + 2.93391, 5);
    expect(a2).toMatchObject({ gpuModel: 'A100', gpuCount: 1, gpuMemoryGiB: 40 });
    expect(a2?.spotHourly).toBeCloseTo(0.36975 + 1.4341, 5);
    // (us-central1's a2-ultragpu row is priced below a2-highgpu's and left out: price-order.test.ts)
    expect(priceOf('gcp', 'a2-ultragpu-8g', 'europe-west4')).toMatchObject({ gpuModel: 'A100', gpuCount: 8, gpuMemoryGiB: 640 });
    expect(priceOf('gcp', 'g2-standard-24', 'us-central1')).toMatchObject({ gpuModel: 'L4', gpuCount: 2, gpuMemoryGiB: 48 });
  });

  it('covers every region the price tables have (us-east-2, a main P5 region, too), NVIDIA GPUs only, whole GPUs only', () => {
    // AWS: every region of the on-demand table with a current-generation NVIDIA GPU instance, read from the table itself.
    const table = parseCsv(readFileSync(`${priceTables}aws_gpu_instances_vantage_ondemand_reserved.csv`, 'utf8'));
    const awsRegions = new Set(
      table.filter((r) => r.Family === 'GPU instance' && r.Gpu?.startsWith('NVIDIA ') && r.Generation === 'current').map((r) => r.Region),
    );
    expect(new Set(catalog.entries.filter((e) => e.provider === 'aws').map((e) => e.region))).toEqual(awsRegions);
    expect(priceOf('aws', 'p5.48xlarge', 'us-east-2')).toBeDefined();
    const regionsOf = (provider: string) => new Set(catalog.entries.filter((e) => e.provider === provider).map((e) => e.region));
    expect(regionsOf('gcp').size).toBeGreaterThan(3);
    expect(regionsOf('azure').size).toBeGreaterThan(3);
    for (const e of catalog.entries) {
      expect(Number.isInteger(e.gpuCount) && e.gpuCount >= 1, e.instanceType).toBe(true);
      expect(e.onDemandHourly, e.instanceType).toBeGreaterThan(0);
    }
    expect(
      catalog.entries.some((e) => /^(inf|trn|dl2q|g4ad|g5g|g6f)/.test(e.instanceType) || /MI300X|NV\d+as_v4/.test(e.instanceType)),
    ).toBe(false);
    expect(priceOf('azure', 'Standard_ND96asr_v4', 'eastus')).toMatchObject({
      gpuModel: 'A100',
      gpuCount: 8,
      gpuMemoryGiB: 320,
      onDemandHourly: 27.197,
    });
  });

  it('lists the types of a region, cheapest first, and answers undefined for what it does not know', () => {
    const types = typesIn('aws', 'us-east-1');
    expect(types.length).toBeGreaterThan(40);
    expect(types.map((t) => t.onDemandHourly)).toEqual([...types.map((t) => t.onDemandHourly)].sort((a, b) => a - b));
    expect(types.map((t) => t.instanceType)).toContain('p5.48xlarge');
    expect(priceOf('aws', 'p4d.24xlarge', 'mars-north-1')).toBeUndefined();
    expect(typesIn('gcp', 'us-east-1')).toEqual([]);
    const own = createPriceCatalog([{ ...types[0]!, instanceType: 'x.large' }]);
    expect(priceOf('aws', 'x.large', 'us-east-1', own)?.instanceType).toBe('x.large');
  });

  it('treats a spot price with an implausible discount (under 20% or over 92% off) as unknown', () => {
    const raw = JSON.parse(readFileSync(catalogFile, 'utf8')) as {
      provider: string;
      instanceType: string;
      region: string;
      onDemandHourly: number;
      spotHourly: number | null;
    }[];
    // a3-highgpu-8g in us-central1: the table says 35.87 against 43.07 on demand, 17% off.
    const a3 = raw.find((e) => e.instanceType === 'a3-highgpu-8g' && e.region === 'us-central1')!;
    expect(1 - a3.spotHourly! / a3.onDemandHourly).toBeLessThan(0.2);
    expect(priceOf('gcp', 'a3-highgpu-8g', 'us-central1')!.spotHourly).toBeNull();
    for (const entry of catalog.entries) {
      if (entry.spotHourly === null) continue;
      const discount = 1 - entry.spotHourly / entry.onDemandHourly;
      expect(discount).toBeGreaterThanOrEqual(0.2);
      expect(discount).toBeLessThanOrEqual(0.92);
    }
    // Plausible ones stay: p4d.24xlarge in us-east-1 keeps its spot price.
    const p4d = raw.find((e) => e.instanceType === 'p4d.24xlarge' && e.region === 'us-east-1')!;
    expect(priceOf('aws', 'p4d.24xlarge', 'us-east-1')!.spotHourly).toBe(p4d.spotHourly);
  });

  it('stays small enough to load at every start: every region, one line each, under 512 KB', () => {
    expect(statSync(catalogFile).size).toBeLessThan(512 * 1024);
  });

  it('is exactly what the build script makes of the reference price tables', () => {
    expect(formatCatalog(buildPriceCatalog(priceTables))).toBe(readFileSync(catalogFile, 'utf8'));
  });
});

describe('the catalog build', () => {
  it('joins the surplus fields of a row back into the loose column (Azure\'s unquoted "V1,V2")', () => {
    const csv =
      'InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,Generation\n' +
      'Standard_NC6s_v3,V100,1,6,112,V100,3.06,0.5,eastus,V1,V2\n' +
      'Standard_NC24ads_A100_v4,A100-80GB,1,24,220,A100-80GB,3.673,0.7,eastus,V2\n' +
      'Standard_NV6ads_A10_v5,A10,0.167,6,55,A10,0.454,0.1,eastus,V1,V2\n';
    expect(parseCsv(csv, 'Generation')[0]).toMatchObject({ Region: 'eastus', Generation: 'V1,V2', Price: '3.06' });
    const entries = buildAzure(csv);
    expect(entries.map((e) => [e.instanceType, e.gpuModel, e.gpuMemoryGiB, e.onDemandHourly])).toEqual([
      ['Standard_NC6s_v3', 'V100', 16, 3.06],
      ['Standard_NC24ads_A100_v4', 'A100', 80, 3.673],
    ]);
  });

  it('knows which GPUs each GCP machine family carries', () => {
    expect(gcpAccelerator('a2-highgpu-4g')).toEqual({ accelerator: 'A100', count: 4 });
    expect(gcpAccelerator('a2-megagpu-16g')).toEqual({ accelerator: 'A100', count: 16 });
    expect(gcpAccelerator('a3-megagpu-8g')).toEqual({ accelerator: 'H100-MEGA', count: 8 });
    expect(gcpAccelerator('a3-ultragpu-8g-nolssd')).toEqual({ accelerator: 'H200', count: 8 });
    expect(gcpAccelerator('g2-standard-48')).toEqual({ accelerator: 'L4', count: 4 });
    expect(gcpAccelerator('n1-standard-8')).toBeNull();
  });
});
