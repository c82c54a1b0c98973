import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { GpuPrice } from '../../src/domain/price-catalog.js';
import { refreshGcpPrices } from '../../src/jobs/refresh-gcp-prices.js';
import { googleEndpoint } from '../../src/providers/gcp/google-endpoint.js';
import { FakeGoogleCloud, fakeGoogleAuth } from '../fakes/fake-google-cloud.js';
import { fakeLifecycle } from '../support/fake-lifecycle.js';
import { cli, workDir } from '../support/run-cli.js';

const CATALOG = fileURLToPath(new URL('../../src/catalog/gpu-prices.json', import.meta.url));
const COMPUTE = '6F81-5844-456A';
const FAST = { attempts: 3, baseDelayMs: 5, maxDelayMs: 20 };

function sku(id: string, description: string, usageType: string, unit: string, units: string, nanos: number, regions = ['us-central1']) {
  return {
    name: `services/${COMPUTE}/skus/${id}`,
    skuId: id,
    description,
    category: {
      serviceDisplayName: 'Compute Engine',
      resourceFamily: 'Compute',
      resourceGroup: unit === 'h' && description.includes('GPU') ? 'GPU' : 'CPU',
      usageType,
    },
    serviceRegions: regions,
    pricingInfo: [
      {
        pricingExpression: {
          usageUnit: unit,
          usageUnitDescription: unit === 'h' ? 'hour' : 'gibibyte hour',
          baseUnit: 's',
          baseUnitConversionFactor: 3600,
          displayQuantity: 1,
          tieredRates: [{ startUsageAmount: 0, unitPrice: { currencyCode: 'USD', units, nanos } }],
        },
        currencyConversionRate: 1,
      },
    ],
    serviceProviderName: 'Google',
  };
}

const SKUS = [
  sku('D18E-3563-415F', 'G2 Instance Core running in Iowa', 'OnDemand', 'h', '0', 25_000_000),
  sku('0001-0000-0002', 'G2 Instance Ram running in Iowa', 'OnDemand', 'GiBy.h', '0', 3_000_000),
  sku('0001-0000-0003', 'Nvidia L4 GPU running in Americas', 'OnDemand', 'h', '0', 600_000_000, ['us-central1', 'us-east4']),
  sku('0001-0000-0004', 'Spot Preemptible G2 Instance Core running in Iowa', 'Preemptible', 'h', '0', 10_000_000),
  sku('0001-0000-0005', 'Spot Preemptible G2 Instance Ram running in Iowa', 'Preemptible', 'GiBy.h', '0', 1_000_000),
  sku(
    '0001-0000-0006',
    'Spot Preemptible Nvidia L4 GPU attached to Spot Preemptible VMs running in Americas',
    'Preemptible',
    'h',
    '0',
    200_000_000,
    ['us-central1'],
  ),
  sku('0001-0000-0007', 'Commitment v1: G2 Cpu in Americas for 1 Year', 'Commit1Yr', 'h', '0', 15_000_000),
  sku('0001-0000-0008', 'Nvidia H100 80GB GPU running in Americas', 'OnDemand', 'h', '11', 60_000_000),
];

const fakes = fakeLifecycle<FakeGoogleCloud>();

function tempCatalog(): string {
  const path = join(workDir(), 'gpu-prices.json');
  copyFileSync(CATALOG, path);
  return path;
}

describe('prices refresh --provider gcp', () => {
  it('reprices GPU machines from Cloud Catalog SKUs across pages and says which it could not', async () => {
    const fake = fakes.track(
      await FakeGoogleCloud.start({
        skus: { [COMPUTE]: SKUS },
        skusPerPage: 3,
        projects: { 'acme-billing': { billingAccountName: 'billingAccounts/012345-6789AB-CDEF01', billingEnabled: true } },
      }),
    );
    const catalogPath = tempCatalog();
    const endpoint = googleEndpoint({ BURNRATE_GCP_ENDPOINT: fake.endpoint }, fakeGoogleAuth());
    const result = await refreshGcpPrices({ catalogPath, project: 'acme-billing', endpoint, retry: FAST, dryRun: false });

    expect(fake.callsOf('catalog.listSkus')).toHaveLength(3);
    expect(fake.callsOf('catalog.listSkus')[0]!.query.get('currencyCode')).toBe('USD');
    expect(result.skusRead).toBe(7); // the commitment SKU is skipped
    expect(result.billing).toEqual({
      project: 'acme-billing',
      billingAccount: 'billingAccounts/012345-6789AB-CDEF01',
      billingEnabled: true,
    });

    const written = JSON.parse(readFileSync(catalogPath, 'utf8')) as GpuPrice[];
    const g2 = written.find((e) => e.provider === 'gcp' && e.instanceType === 'g2-standard-4' && e.region === 'us-central1')!;
    // 4 cores x 0.025 + 16 GiB x 0.003 + 1 L4 x 0.60; spot 4 x 0.01 + 16 x 0.001 + 0.20
    expect(g2.onDemandHourly).toBeCloseTo(0.748, 5);
    expect(g2.spotHourly).toBeCloseTo(0.256, 5);
    expect(result.changes).toContainEqual({
      instanceType: 'g2-standard-4',
      region: 'us-central1',
      field: 'onDemandHourly',
      before: 0.70683,
      after: 0.748,
    });
    // No A3 core or memory SKU: the H100 machine keeps its price, and the report says why.
    const a3 = written.find((e) => e.provider === 'gcp' && e.instanceType === 'a3-highgpu-8g' && e.region === 'us-central1')!;
    expect(a3.onDemandHourly).toBe(43.06615);
    expect(result.unpriced).toContainEqual({ instanceType: 'a3-highgpu-8g', region: 'us-central1', missing: 'core, memory' });
    // The table's A100 80 GB rows in us-central1 stay below the 40 GB ones: written, and named as left out when loaded.
    expect(result.outOfOrder.map((o) => `${o.instanceType} ${o.region}`)).toContain('a2-ultragpu-8g us-central1');
    // Other providers and other regions are untouched.
    const before = JSON.parse(readFileSync(CATALOG, 'utf8')) as GpuPrice[];
    expect(written.filter((e) => e.provider !== 'gcp')).toEqual(before.filter((e) => e.provider !== 'gcp'));
    expect(written.find((e) => e.instanceType === 'g2-standard-4' && e.region === 'europe-west4')).toEqual(
      before.find((e) => e.instanceType === 'g2-standard-4' && e.region === 'europe-west4'),
    );
  });

  it('writes nothing on a dry run, and retries a rate-limited page', async () => {
    const fake = fakes.track(await FakeGoogleCloud.start({ skus: { [COMPUTE]: SKUS } }));
    fake.failNext('catalog.listSkus', 'RATE_LIMITED');
    const catalogPath = tempCatalog();
    const result = await refreshGcpPrices({
      catalogPath,
      endpoint: googleEndpoint({ BURNRATE_GCP_ENDPOINT: fake.endpoint }, fakeGoogleAuth()),
      retry: FAST,
      dryRun: true,
    });
    expect(result.changes.length).toBeGreaterThan(0);
    expect(result.written).toBe(false);
    expect(readFileSync(catalogPath, 'utf8')).toBe(readFileSync(CATALOG, 'utf8'));
    expect(fake.callsOf('catalog.listSkus')).toHaveLength(2);
  });

  it('the command explains what it needs', async () => {
    const cwd = workDir();
    const noProvider = await cli(['prices', 'refresh'], { cwd });
    expect(noProvider.code).toBe(2);
    expect(noProvider.err).toContain('--provider is required');
    const aws = await cli(['prices', 'refresh', '--provider', 'aws'], { cwd });
    expect(aws.err).toContain('--provider must be one of gcp, got "aws"');
    const noCatalog = await cli(['prices', 'refresh', '--provider', 'gcp', '--catalog', 'missing.json'], { cwd });
    expect(noCatalog.code).toBe(2);
    expect(noCatalog.err).toContain('cannot read the price catalog');
  });
});
