import type { SpendRow } from '../../src/domain/spend.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { loadWasteDiagnosis, wastePeriod } from '../../src/snapshots/waste-snapshot.js';
import { afterEach, beforeEach, vi } from 'vitest';
import { FakeEc2, type FakeEc2Instance } from '../fakes/fake-ec2.js';
import { dcgmGpuLabelSets, FakePrometheus, readDcgmExposition, type FakeDcgmGpu, type SampleFn } from '../fakes/fake-prometheus.js';
import { isolateAwsEnv, useEc2Endpoint } from './aws-test-env.js';
import { testDeps } from './deps.js';

// What the waste diagnosis tests share: EC2 GPU machines in us-east-1 known by their private DNS
// name, one DCGM GPU each, and the diagnosis of two whole days read through real parts (the fake EC2
// and Prometheus the test started, and the bill rows it wrote).

/** A running machine at 10.0.1.xx whose host name (ip-10-0-1-xx) DCGM reports. */
export function ec2GpuMachine(id: string, host: string, instanceType: string, tags: Record<string, string>): FakeEc2Instance {
  return {
    id,
    region: 'us-east-1',
    state: 'running',
    instanceType,
    privateDnsName: `${host}.ec2.internal`,
    privateIp: `10.0.1.${host.slice(-2)}`,
    tags,
  };
}

/** The one GPU of `host`: utilisation and memory held (MiB) by time, the rest of its labels from the shared exposition. */
export function dcgmHostGpu(host: string, util: SampleFn, memory: SampleFn): FakeDcgmGpu {
  const [template] = dcgmGpuLabelSets(readDcgmExposition());
  return {
    labels: { ...template, Hostname: host, gpu: '0' },
    metrics: { DCGM_FI_DEV_GPU_UTIL: util, DCGM_FI_DEV_FB_USED: memory },
  };
}

/** The waste diagnosis of the two whole days before `asOf` (YYYY-MM-DD) for vision and nlp, over `bill` and the fakes' fleet. */
export async function diagnoseTwoDays(prometheusUrl: string, bill: SpendRow[], now: string, asOf: string) {
  const t = testDeps(
    {
      teams: [{ id: 'vision' }, { id: 'nlp' }],
      sources: [],
      gpu: { metrics: [{ type: 'prometheus', url: prometheusUrl }], inventory: [{ type: 'ec2', regions: ['us-east-1'] }] },
    },
    now,
  );
  t.deps.gpu = buildGpuDeps(t.deps.config, {})!;
  await t.deps.store.importBatches([{ scope: { source: 'test', billingPeriods: [asOf.slice(0, 7)] }, rows: bill, dataThrough: null }]);
  return loadWasteDiagnosis(t.deps, wastePeriod({ days: 2 }, asOf));
}

/**
 * A fake EC2 listing `instances` and a fake Prometheus serving `gpus`, started before each test of
 * the file and closed after it; the Prometheus URL while they run.
 */
export function useFakeGpuFleet(instances: FakeEc2Instance[], gpus: () => FakeDcgmGpu[]): { prometheusUrl: () => string } {
  let ec2: FakeEc2 | undefined;
  let prom: FakePrometheus | undefined;
  beforeEach(async () => {
    isolateAwsEnv();
    ec2 = await FakeEc2.start({ instances });
    prom = await FakePrometheus.start({ gpus: gpus() });
    useEc2Endpoint(ec2.endpoint);
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    await Promise.all([ec2?.close(), prom?.close()]);
    ec2 = prom = undefined;
  });
  return { prometheusUrl: () => prom!.url };
}
