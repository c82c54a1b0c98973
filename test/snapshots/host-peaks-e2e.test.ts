import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { currentRecommendations } from '../../src/snapshots/current-recommendations.js';
import { FakeEc2 } from '../fakes/fake-ec2.js';
import { constant, FakePrometheus, type FakeNodeHost } from '../fakes/fake-prometheus.js';
import { isolateAwsEnv, useEc2Endpoint } from '../support/aws-test-env.js';
import { testDeps } from '../support/deps.js';

// A notebook host on a g6e.2xlarge (1× L40S, 8 vCPUs, 64 GiB) whose GPU does little: 12 GiB of
// its 48 GiB, 8% busy, for the whole lookback. Its host is another matter, as node_exporter says.
const NOW = '2026-11-18T06:00:00Z';
const NOTEBOOK = 'i-0a00000000000000a';
const GIB = 1024 ** 3;

let ec2: FakeEc2 | undefined;
let prom: FakePrometheus | undefined;

beforeEach(async () => {
  isolateAwsEnv();
  ec2 = await FakeEc2.start({
    instances: [
      {
        id: NOTEBOOK,
        region: 'us-west-2',
        state: 'running',
        instanceType: 'g6e.2xlarge',
        privateDnsName: 'ip-10-0-3-9.us-west-2.compute.internal',
        privateIp: '10.0.3.9',
        tags: { Name: 'cv-notebook', team: 'vision', 'burnrate:workload': 'notebook' },
      },
    ],
  });
  useEc2Endpoint(ec2.endpoint);
});

afterEach(async () => {
  vi.unstubAllEnvs();
  ec2?.assertNoUnexpectedCalls();
  prom?.assertNoUnexpectedRequests();
  await Promise.all([ec2?.close(), prom?.close()]);
  ec2 = prom = undefined;
});

async function recommendationsWith(hosts: readonly FakeNodeHost[], fail = false) {
  prom = await FakePrometheus.start({
    gpus: [
      {
        labels: { Hostname: 'ip-10-0-3-9', gpu: '0', modelName: 'NVIDIA L40S' },
        metrics: { DCGM_FI_DEV_GPU_UTIL: constant(8), DCGM_FI_DEV_FB_USED: constant(12 * 1024) },
      },
    ],
    hosts,
  });
  if (fail) prom.failQueries(/node_/, { status: 500, body: 'upstream timeout' });
  const t = testDeps(
    {
      teams: [{ id: 'vision', owners: ['U0ALICE'] }],
      sources: [],
      gpu: { metrics: [{ type: 'prometheus', url: prom.url }], inventory: [{ type: 'ec2', regions: ['us-west-2'] }] },
    },
    NOW,
  );
  t.deps.gpu = buildGpuDeps(t.deps.config, {})!;
  return currentRecommendations(t.deps);
}

describe('right-size reads the host from node_exporter', () => {
  it('moves the notebook only to a type whose vCPUs and memory hold what its host used', async () => {
    // Without host figures: the L4 type with 4 vCPUs and 16 GiB, flagged as unmeasured.
    const [blind] = await recommendationsWith([]);
    expect(blind!.proposed.instanceType).toBe('g6.xlarge');
    expect(blind!.confidence).toBe('low');

    // Its loaders keep 7 vCPUs and 50 GiB busy (the scrape target is the host's IP and port): g6.4xlarge, 16 vCPUs, 64 GiB.
    const [rec] = await recommendationsWith([{ instance: '10.0.3.9:9100', cpuBusyCores: constant(7), memUsedBytes: constant(50 * GIB) }]);
    expect(rec!.kind).toBe('right-size');
    expect(rec!.proposed.instanceType).toBe('g6.4xlarge');
    expect(rec!.evidence.join(' ')).toContain('Its host used 7 of its 8 vCPUs and 50 GiB of its 64 GiB memory 95% of the time');
    expect(rec!.confidence).toBe('medium');
  });

  it('still recommends, saying the host went unmeasured, when the host queries fail', async () => {
    const [rec] = await recommendationsWith(
      [{ instance: '10.0.3.9:9100', cpuBusyCores: constant(7), memUsedBytes: constant(50 * GIB) }],
      true,
    );
    expect(rec!.proposed.instanceType).toBe('g6.xlarge');
    expect(rec!.evidence.join(' ')).toContain("no source measures this host's CPU and memory");
  });
});
