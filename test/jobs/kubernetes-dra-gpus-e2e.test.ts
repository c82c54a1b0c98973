import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadPriceCatalog } from '../../src/catalog/price-catalog.js';
import { sampleKubeUsage } from '../../src/jobs/kube-usage.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { spendReport } from '../../commands/spend.js';
import { FakeKubeApi } from '../fakes/fake-kube-api.js';
import { draCluster, KAI_NODE } from '../fakes/kube-dra-cluster.js';
import { kubeconfigFor } from '../fakes/kube-objects.js';
import { constant, DCGM_4X_DRA_EXPOSITION, exposedGpus, FakePrometheus } from '../fakes/fake-prometheus.js';
import { isolateAwsEnv } from '../support/aws-test-env.js';
import { testDeps } from '../support/deps.js';
import { cli, workDir } from '../support/run-cli.js';

// A cluster whose GPUs are allocated by DRA, shared by KAI fractions and time-sliced
// (test/fakes/kube-dra-cluster.ts), with dcgm-exporter 4.x's metrics of the DRA node: every GPU
// idle. Each GPU is priced once, at its share of its node, as a hand computation says.
const NOW = '2026-11-18T06:00:00Z';

let api: FakeKubeApi | undefined;
let prom: FakePrometheus | undefined;

beforeEach(async () => {
  isolateAwsEnv();
  api = await FakeKubeApi.start({ objects: draCluster() });
  // The KAI node's shared GPU 0 as DCGM sees it: under the reservation pod holding the device.
  const kaiGpu = {
    labels: {
      hostname: KAI_NODE,
      gpu: '0',
      modelName: 'NVIDIA A10G',
      namespace: 'kai-resource-reservation',
      pod: 'gpu-reservation-ip-10-0-6-30-q7x2m',
    },
    metrics: { DCGM_FI_DEV_GPU_UTIL: constant(0), DCGM_FI_DEV_FB_USED: constant(900) },
  };
  prom = await FakePrometheus.start({ gpus: [...exposedGpus(DCGM_4X_DRA_EXPOSITION), kaiGpu] });
});

afterEach(async () => {
  api?.assertNoUnexpectedRequests();
  prom?.assertNoUnexpectedRequests();
  await Promise.all([api?.close(), prom?.close()]);
  api = prom = undefined;
});

function configIn(cwd: string) {
  const kubeconfig = join(cwd, 'kubeconfig');
  writeFileSync(kubeconfig, kubeconfigFor(api!.url, api!.bearerToken));
  return {
    teams: [{ id: 'research' }, { id: 'vision' }],
    sources: [],
    gpu: {
      metrics: [{ type: 'prometheus', url: prom!.url }],
      inventory: [{ type: 'kubernetes', cluster: 'lab', kubeconfig }],
    },
  };
}

const hourly = (type: string) => loadPriceCatalog().priceOf('aws', type, 'us-east-1')!.onDemandHourly!;

describe('GPUs allocated by DRA, read from dcgm-exporter 4.x', () => {
  it('idle --json reports each claim’s workload at its share of the node, each GPU once', async () => {
    const cwd = workDir();
    writeFileSync(join(cwd, 'burnrate.yml'), stringify(configIn(cwd)));
    const result = await cli(['idle', '--json'], { cwd, now: NOW });
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    const { idle, noMetrics } = JSON.parse(result.out) as {
      idle: { instanceId: string; hourlyPrice: number; perDay: number; team: string }[];
      noMetrics: { instanceId: string; hourlyPrice: number; gpus: number; hint?: string }[];
    };
    const p5 = hourly('p5.48xlarge');
    const g5 = hourly('g5.12xlarge');
    // By hand: the p5.48xlarge's eight H100s, each workload's claimed share of them.
    const expected = new Map([
      ['k8s:lab/ml-research/Job/trainer', (p5 * 2) / 8], // two GPUs of a claim from a template
      ['k8s:lab/vision/Deployment/infer', (p5 * 1) / 8], // one GPU shared by its two pods: once
      ['k8s:lab/vision/Pod/eval-a', (p5 * 0.5) / 8], // half of a GPU shared with eval-b
      ['k8s:lab/inference/Deployment/embed', (p5 * 3) / 7 / 8], // a 3g.40gb MIG device of 7 slices
    ]);
    expect(new Map(idle.map((f) => [f.instanceId, f.hourlyPrice]))).toEqual(
      new Map([...expected].map(([id, price]) => [id, Math.round(price * 1e6) / 1e6])),
    );
    expect(idle.find((f) => f.instanceId.endsWith('/embed'))!.team).toBe('vision');
    for (const f of idle) expect(f.perDay).toBeCloseTo(expected.get(f.instanceId)! * 24, 2);

    // eval-b's half of GPU 3 is priced, but the GPU's one series is eval-a's; the KAI fractions'
    // GPU is the reservation pod's in DCGM. Every GPU's price appears once over both lists.
    const hintOf = (id: string) => noMetrics.find((u) => u.instanceId === id)?.hint;
    expect(hintOf('k8s:lab/vision/Deployment/frac-half')).toContain('KAI fraction');
    expect(hintOf('k8s:lab/ml-research/Deployment/frac-mem')).toContain('KAI fraction');
    expect(hintOf('k8s:lab/ml-research/Job/train-2')).toBeUndefined();
    const listed = new Map([...idle, ...noMetrics].map((f) => [f.instanceId, f.hourlyPrice]));
    expect(noMetrics.find((u) => u.instanceId === 'k8s:lab/vision/Pod/eval-b')!.hint).toBe(
      'its GPU is shared through ResourceClaim vision/eval-shared-gpu with vision/eval-a, whose metrics it reports under',
    );
    expect(listed.get('k8s:lab/vision/Pod/eval-b')).toBeCloseTo((p5 * 0.5) / 8, 6);
    expect(listed.get('k8s:lab/vision/Deployment/frac-half')).toBeCloseTo((g5 * 0.5) / 4, 6);
    expect(listed.get('k8s:lab/ml-research/Deployment/frac-mem')).toBeCloseTo((g5 * 0.25) / 4, 6);
    expect(listed.get('k8s:lab/vision/StatefulSet/notebook-ts')).toBeCloseTo((g5 * 0.5) / 4, 6);
    expect([...listed.keys()].some((id) => id.includes('kai-resource-reservation'))).toBe(false);
    const sum = [...listed.values()].reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo((p5 * (2 + 1 + 1 + 3 / 7)) / 8 + (g5 * (0.5 + 0.25 + 2)) / 4 + (g5 * 0.5) / 4, 4);
  });

  it('says why a node’s workloads have no metrics when its exporter names no pods, and what to set', async () => {
    // The same GPUs from an exporter run without Kubernetes attribution: no pod, namespace or claim labels.
    const bare = exposedGpus(DCGM_4X_DRA_EXPOSITION).map((gpu) => ({
      ...gpu,
      labels: Object.fromEntries(Object.entries(gpu.labels).filter(([k]) => !/^(pod|namespace|container|dra_.*)$/.test(k))),
    }));
    await prom!.close();
    prom = await FakePrometheus.start({ gpus: bare });
    const cwd = workDir();
    writeFileSync(join(cwd, 'burnrate.yml'), stringify(configIn(cwd)));
    const result = await cli(['idle', '--json'], { cwd, now: NOW });
    const { idle, noMetrics } = JSON.parse(result.out) as { idle: unknown[]; noMetrics: { instanceId: string; hint?: string }[] };
    expect(idle).toEqual([]);
    const hinted = noMetrics.filter((u) => u.hint?.includes('DCGM_EXPORTER_KUBERNETES=true')).map((u) => u.instanceId);
    // The DRA node's five workloads; the KAI and time-sliced nodes' exporters are not scraped at all: no hint there.
    expect(hinted.sort()).toEqual(
      [
        'k8s:lab/inference/Deployment/embed',
        'k8s:lab/ml-research/Job/trainer',
        'k8s:lab/vision/Deployment/infer',
        'k8s:lab/vision/Pod/eval-a',
        'k8s:lab/vision/Pod/eval-b',
      ].sort(),
    );
    const plain = await cli(['idle'], { cwd, now: NOW });
    expect(plain.out).toContain('DCGM_EXPORTER_KUBERNETES=true');
  });

  it('spend --by workload splits each node over the workloads holding its GPUs, the rest unrequested, to the cent', async () => {
    const t = testDeps(configIn(workDir()), NOW);
    t.deps.gpu = buildGpuDeps(t.deps.config, {})!;
    expect(await sampleKubeUsage(t.deps)).toBe(0); // the first sample starts the clock
    t.setNow('2026-11-18T06:15:00Z');
    expect(await sampleKubeUsage(t.deps)).toBeGreaterThan(0);

    const report = await spendReport(t.deps, { period: { start: '2026-11-18', end: '2026-11-19' }, by: 'workload' });
    const byKey = new Map(report.rows.map((r) => [r.key, r.effective]));
    // By hand: a quarter hour of each node at its list price, split by GPUs held over the node's GPUs.
    const p5 = hourly('p5.48xlarge') * 0.25;
    const g5 = hourly('g5.12xlarge') * 0.25;
    const expected = new Map([
      ['ml-research/Job/trainer', (p5 * 2) / 8],
      ['vision/Deployment/infer', (p5 * 1) / 8],
      ['vision/Pod/eval-a', (p5 * 0.5) / 8],
      ['vision/Pod/eval-b', (p5 * 0.5) / 8],
      ['inference/Deployment/embed', (p5 * 3) / 7 / 8],
      ['vision/Deployment/frac-half', (g5 * 0.5) / 4],
      ['ml-research/Deployment/frac-mem', (g5 * 0.25) / 4],
      ['ml-research/Job/train-2', (g5 * 2) / 4],
      ['vision/StatefulSet/notebook-ts', (g5 * 0.5) / 4],
    ]);
    for (const [key, amount] of expected) expect(Math.abs(byKey.get(key)! - amount), key).toBeLessThanOrEqual(0.01 + 1e-9);
    // Nobody's: H100s 4–6 and the rest of GPU 7; the KAI GPU beyond its fractions and a whole A10G; 3.5 time-sliced A10Gs.
    const unrequested = (p5 * (8 - 2 - 1 - 1 - 3 / 7)) / 8 + (g5 * (4 - 2.75)) / 4 + (g5 * 3.5) / 4;
    const rest = report.rows.filter((r) => !expected.has(r.key)).reduce((sum, r) => sum + r.effective, 0);
    expect(Math.abs(rest - unrequested)).toBeLessThanOrEqual(0.02 + 1e-9);
    // Each node's cost once: the lines add up to the three nodes' quarter hours to the cent.
    const nodeCosts = Math.round(p5 * 100) + 2 * Math.round(g5 * 100);
    expect(report.rows.reduce((sum, r) => sum + Math.round(r.effective * 100), 0)).toBe(nodeCosts);
  });
});
