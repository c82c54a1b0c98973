import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { stillIdle } from '../../src/snapshots/idle-gpus.js';
import { FakeCloudWatch, nvidiaSmiMetrics, readNvidiaSmiCapture } from '../fakes/fake-cloudwatch.js';
import { FakeEc2 } from '../fakes/fake-ec2.js';
import { visionNotebook } from '../support/ec2-notebook.js';
import { isolateAwsEnv, useEc2Endpoint } from '../support/aws-test-env.js';
import { testDeps } from '../support/deps.js';

// Wednesday 18 Nov 2026, 06:00 UTC. The idle GPUs went idle at 01:00.
const NOW = '2026-11-18T06:00:00Z';
const IDLE_FROM = Date.parse(NOW) / 1000 - 5 * 3600;

const BY_ID_IDLE = 'i-0a00000000000000a';
const BY_HOST_IDLE = 'i-0b00000000000000b';
const BUSY = 'i-0c00000000000000c';

const machine = visionNotebook;

/** Each machine's GPU as the agent publishes it (with InstanceId appended, or by host name alone), and whether the test made it idle. */
const GPUS: { instanceId: string; dimensions: Record<string, string> & { host: string }; idle: boolean }[] = [
  { instanceId: BY_ID_IDLE, dimensions: { host: 'ip-10-0-1-17', InstanceId: BY_ID_IDLE }, idle: true },
  { instanceId: BY_HOST_IDLE, dimensions: { host: 'ip-10-0-1-18.ec2.internal' }, idle: true },
  { instanceId: BUSY, dimensions: { host: 'ip-10-0-1-19' }, idle: false },
];

let ec2: FakeEc2 | undefined;
let cw: FakeCloudWatch | undefined;

beforeEach(async () => {
  isolateAwsEnv();
  ec2 = await FakeEc2.start({ instances: [machine(BY_ID_IDLE, 17), machine(BY_HOST_IDLE, 18), machine(BUSY, 19)] });
  useEc2Endpoint(ec2.endpoint);
  const load = readNvidiaSmiCapture('nvidia-h100-80gb-hbm3__590.48.01', 'load');
  const quiet = readNvidiaSmiCapture('nvidia-h100-80gb-hbm3__590.48.01', 'idle');
  cw = await FakeCloudWatch.start({
    gpus: GPUS.map(({ dimensions, idle }) => ({
      dimensions: { ...dimensions, index: '0', name: load.name },
      metrics: nvidiaSmiMetrics((t) => (idle && t >= IDLE_FROM ? quiet : load)),
    })),
  });
  vi.stubEnv('AWS_ENDPOINT_URL_CLOUDWATCH', cw.endpoint);
});

afterEach(async () => {
  vi.unstubAllEnvs();
  ec2?.assertNoUnexpectedCalls();
  cw?.assertNoUnexpectedCalls();
  await Promise.all([ec2?.close(), cw?.close()]);
  ec2 = cw = undefined;
});

describe("a Stop click's re-check on CloudWatch", () => {
  it("lists and queries only the clicked machine's GPU, and answers idle or busy as the test made them", async () => {
    const t = testDeps(
      {
        teams: [{ id: 'vision', owners: ['U0ALICE'] }],
        sources: [],
        gpu: { metrics: [{ type: 'cloudwatch', region: 'us-east-1' }], inventory: [{ type: 'ec2', regions: ['us-east-1'] }] },
        actions: { enabled: true },
      },
      NOW,
    );
    t.deps.gpu = buildGpuDeps(t.deps.config)!;
    for (const { instanceId, dimensions, idle } of GPUS) {
      const before = cw!.calls.length;
      expect(await stillIdle(t.deps, instanceId)).toBe(idle);
      const calls = cw!.calls.slice(before);
      // Every listing names this machine (its id or a spelling of its host name).
      const listings = calls.filter((c) => c.operation === 'ListMetrics');
      expect(listings.length).toBeGreaterThan(0);
      for (const { input } of listings) expect(input.Dimensions).toHaveLength(1);
      // The samples asked for are this machine's GPU's alone.
      const hosts = calls
        .filter((c) => c.operation === 'GetMetricData')
        .flatMap(({ input }) =>
          (input.MetricDataQueries as { MetricStat: { Metric: { Dimensions: { Name: string; Value: string }[] } } }[]).map(
            (q) => q.MetricStat.Metric.Dimensions.find((d) => d.Name === 'host')!.Value,
          ),
        );
      expect(hosts.length).toBeGreaterThan(0);
      expect(new Set(hosts)).toEqual(new Set([dimensions.host]));
    }
  });
});
