import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Deps } from '../../src/deps.js';
import { runGpuCheck } from '../../src/jobs/gpu-check.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { metricsWindow } from '../../src/snapshots/gpu-windows.js';
import { detectIdleGpus, stillIdle } from '../../src/snapshots/idle-gpus.js';
import { FakeEc2 } from '../fakes/fake-ec2.js';
import { visionNotebook } from '../support/ec2-notebook.js';
import { FakePrometheus, type FakeDcgmGpu, type SampleFn } from '../fakes/fake-prometheus.js';
import { isolateAwsEnv, useEc2Endpoint } from '../support/aws-test-env.js';
import { testDeps } from '../support/deps.js';

// Wednesday 18 Nov 2026, 06:00 UTC. The idle GPUs went idle at 01:00.
const NOW = '2026-11-18T06:00:00Z';
const T = Date.parse(NOW) / 1000;
const IDLE_FROM = T - 5 * 3600;

/**
 * Four machines, each named by DCGM another way: the short host name, the full DNS name, and two
 * scrape targets whose addresses share a prefix (10.0.1.1 and 10.0.1.12), which a matcher that
 * took the dots as "any character" or did not anchor the address would mix up.
 */
const SHORT_IDLE = 'i-0a00000000000000a';
const DNS_BUSY = 'i-0b00000000000000b';
const TARGET_IDLE = 'i-0c00000000000000c';
const TARGET_BUSY = 'i-0d00000000000000d';

const machine = visionNotebook;
const INSTANCES = [machine(SHORT_IDLE, 17), machine(DNS_BUSY, 18), machine(TARGET_IDLE, 1), machine(TARGET_BUSY, 12)];

/** The labels each machine's one GPU carries, and whether the test made it idle since IDLE_FROM. */
const GPUS: { instanceId: string; host: Record<string, string>; idle: boolean }[] = [
  { instanceId: SHORT_IDLE, host: { Hostname: 'ip-10-0-1-17' }, idle: true },
  { instanceId: DNS_BUSY, host: { Hostname: 'IP-10-0-1-18.ec2.internal' }, idle: false },
  { instanceId: TARGET_IDLE, host: { instance: '10.0.1.1:9400' }, idle: true },
  { instanceId: TARGET_BUSY, host: { instance: '10.0.1.12:9400' }, idle: false },
];

function fleet(): FakeDcgmGpu[] {
  const when =
    (idle: boolean) =>
    (busy: number, quiet: number): SampleFn =>
    (t) =>
      idle && t >= IDLE_FROM ? quiet : busy;
  return GPUS.map(({ instanceId, host, idle }) => ({
    labels: { ...host, gpu: '0', UUID: `GPU-${instanceId}`, modelName: 'NVIDIA A10G' },
    metrics: {
      DCGM_FI_DEV_GPU_UTIL: when(idle)(97, 0),
      DCGM_FI_DEV_POWER_USAGE: when(idle)(190, 9),
      DCGM_FI_DEV_FB_USED: when(idle)(20_000, 0),
    },
  }));
}

let ec2: FakeEc2 | undefined;
let prom: FakePrometheus | undefined;

beforeEach(async () => {
  isolateAwsEnv();
  ec2 = await FakeEc2.start({ instances: INSTANCES });
  useEc2Endpoint(ec2.endpoint);
  prom = await FakePrometheus.start({ gpus: fleet() });
});

afterEach(async () => {
  vi.unstubAllEnvs();
  ec2?.assertNoUnexpectedCalls();
  prom?.assertNoUnexpectedRequests();
  await Promise.all([ec2?.close(), prom?.close()]);
  ec2 = prom = undefined;
});

function setup() {
  const t = testDeps(
    {
      teams: [{ id: 'vision', owners: ['U0ALICE'] }],
      sources: [],
      gpu: { metrics: [{ type: 'prometheus', url: prom!.url }], inventory: [{ type: 'ec2', regions: ['us-east-1'] }] },
      actions: { enabled: true },
    },
    NOW,
  );
  t.deps.gpu = buildGpuDeps(t.deps.config)!;
  return t;
}

/** The queries Prometheus received from `from` on. */
const queriesSince = (from: number) => prom!.requests.slice(from).map((r) => r.query ?? '');

/**
 * Another machine's names (id, DNS short name, address with its dots escaped as the query spells
 * them) among the names a query's matchers alternate: none may be.
 */
function othersNamed(query: string, clicked: string): string[] {
  const named = new Set(query.split(/[|()"?:]/));
  return INSTANCES.filter((i) => i.id !== clicked)
    .flatMap((i) => [i.id, i.privateDnsName!.split('.')[0]!, i.privateIp!.replaceAll('.', '\\\\.')])
    .filter((name) => named.has(name));
}

describe("a Stop click's re-check on Prometheus", () => {
  it("asks only for the clicked machine's series, and answers idle or busy as the test made them", async () => {
    const { deps } = setup();
    for (const { instanceId, idle } of GPUS) {
      const before = prom!.requests.length;
      expect(await stillIdle(deps, instanceId)).toBe(idle);
      const queries = queriesSince(before);
      expect(queries.length).toBeGreaterThan(0);
      for (const query of queries) {
        expect(query.split(/[|()"?:]/)).toContain(instanceId);
        expect(othersNamed(query, instanceId)).toEqual([]);
      }
    }
  });

  it("hands back the clicked machine's series alone, however DCGM names it", async () => {
    const { deps } = setup();
    const inventory = (await deps.gpu!.inventory()).instances;
    const window = metricsWindow(deps, deps.clock());
    const [source] = deps.gpu!.metrics;
    for (const { instanceId, host } of GPUS) {
      const series = await source!.fetchInstances!(
        window,
        inventory.filter((i) => i.instanceId === instanceId),
      );
      expect(series.map((s) => s.ref.host)).toEqual([host.Hostname ?? host.instance]);
    }
  });

  it('after a check, asks only for the new minutes of the clicked machine; the answer matches the whole-fleet detection', async () => {
    const { deps, setNow } = setup();
    await runGpuCheck(deps);
    setNow(new Date((T + 10 * 60) * 1000).toISOString());
    const idleNow = async (d: Deps) => new Set((await detectIdleGpus(d, d.clock())).map((f) => f.instanceId));

    for (const { instanceId, idle } of GPUS) {
      const before = prom!.requests.length;
      expect(await stillIdle(deps, instanceId)).toBe(idle);
      const requests = prom!.requests.slice(before);
      expect(new Set(requests.map((r) => r.start))).toEqual(new Set([T]));
      for (const { query } of requests) expect(othersNamed(query ?? '', instanceId)).toEqual([]);
    }
    expect(await idleNow(deps)).toEqual(new Set(GPUS.filter((g) => g.idle).map((g) => g.instanceId)));
  });
});
