import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadPriceCatalog } from '../../src/catalog/price-catalog.js';
import { FakeEc2 } from '../fakes/fake-ec2.js';
import { exposedGpus, FakePrometheus, MIG_H100_EXPOSITION } from '../fakes/fake-prometheus.js';
import { isolateAwsEnv, useEc2Endpoint } from '../support/aws-test-env.js';
import { cli, workDir } from '../support/run-cli.js';

const NOW = '2026-11-18T06:00:00Z';
const H100_BOX = 'i-0a1b2c3d4e5f60718';

let ec2: FakeEc2 | undefined;
let prom: FakePrometheus | undefined;

beforeEach(async () => {
  isolateAwsEnv();
  // The H100 of the dump is a p5.4xlarge's (one H100), named by its private DNS name in the exporter's Hostname.
  ec2 = await FakeEc2.start({
    instances: [
      {
        id: H100_BOX,
        region: 'us-east-1',
        state: 'running',
        instanceType: 'p5.4xlarge',
        privateDnsName: 'ip-10-0-3-41.ec2.internal',
        privateIp: '10.0.3.41',
        tags: { Name: 'mig-shared-h100', team: 'platform' },
      },
    ],
  });
  useEc2Endpoint(ec2.endpoint);
  prom = await FakePrometheus.start({ gpus: exposedGpus(MIG_H100_EXPOSITION) });
});

afterEach(async () => {
  ec2?.assertNoUnexpectedCalls();
  prom?.assertNoUnexpectedRequests();
  await Promise.all([ec2?.close(), prom?.close()]);
  ec2 = prom = undefined;
});

describe('burnrate idle --json on a GPU split in MIG slices', () => {
  it('reports the H100 in three idle slices as one GPU at the machine price', async () => {
    const cwd = workDir();
    writeFileSync(
      join(cwd, 'burnrate.yml'),
      stringify({
        teams: [{ id: 'platform' }],
        sources: [],
        gpu: { metrics: [{ type: 'prometheus', url: prom!.url }], inventory: [{ type: 'ec2', regions: ['us-east-1'] }] },
      }),
    );

    const result = await cli(['idle', '--json'], { cwd, now: NOW });
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    const { idle } = JSON.parse(result.out) as { idle: { instanceId: string; gpus: number; hourlyPrice: number; perDay: number }[] };
    const hourly = loadPriceCatalog().priceOf('aws', 'p5.4xlarge', 'us-east-1')!.onDemandHourly!;
    expect(idle).toHaveLength(1);
    expect(idle[0]).toMatchObject({ instanceId: H100_BOX, gpus: 1, hourlyPrice: hourly });
    expect(idle[0]!.perDay).toBeCloseTo(hourly * 24, 2);
  });
});
