import { afterEach, describe, expect, it } from 'vitest';
import { idleFindings, toCents, type IdleInstance } from '../../../src/checks/idle/idle-findings.js';
import { idlePolicy } from '../../../src/checks/idle/idle-policy.js';
import { detectIdleIntervalsMany } from '../../../src/checks/idle/detect-idle.js';
import { addGpuTime, emptyGpuTime } from '../../../src/checks/waste/gpu-time.js';
import type { GpuSeries, MetricsRange } from '../../../src/domain/gpu-metrics.js';
import { countPhysicalGpus, gpuShareOf } from '../../../src/domain/physical-gpus.js';
import { migShare } from '../../../src/domain/kubernetes.js';
import { PrometheusGpuSource } from '../../../src/providers/prometheus/prometheus-source.js';
import { exposedGpus, FakePrometheus, MIG_A30_EXPOSITION, MIG_H100_EXPOSITION } from '../../fakes/fake-prometheus.js';

// MIG slices through the real Prometheus path: the fake serves the two dumps in the exporter's
// format, the source fetches them, and the idle rules count what they return.
const START = Date.UTC(2026, 10, 18, 0, 0, 0) / 1000;
const HOURS = 6;
const RANGE: MetricsRange = { start: START, end: START + HOURS * 3600, stepSeconds: 60 };
const NOW = new Date(RANGE.end * 1000);

let prom: FakePrometheus | undefined;
afterEach(async () => {
  prom?.assertNoUnexpectedRequests();
  await prom?.close();
  prom = undefined;
});

async function fetchDump(dump: URL): Promise<GpuSeries[]> {
  prom = await FakePrometheus.start({ gpus: exposedGpus(dump) });
  return new PrometheusGpuSource({ id: 'dcgm', url: prom.url }).fetch(RANGE);
}

const box = (id: string, gpuCount: number, hourlyPrice: number): IdleInstance => ({
  id,
  team: 'ml-platform',
  hourlyPrice,
  gpuCount,
  protected: false,
});

const findingsOf = (series: GpuSeries[], instance: IdleInstance, policy = idlePolicy()) =>
  idleFindings({ gpus: series.map((s) => ({ series: s, instance })), policy, now: NOW, schedules: new Map(), range: RANGE });

describe('MIG slices from dcgm-exporter are slices of physical GPUs', () => {
  it('H100 in three slices: three series, each with its own pod, and one GPU', async () => {
    const series = await fetchDump(MIG_H100_EXPOSITION);

    expect(series.map((s) => [s.ref.gpu, s.ref.mig, s.ref.namespace, s.ref.pod])).toEqual([
      ['0', { instance: '1', profile: '4g.40gb' }, 'ml-research', 'finetune-llama-7b-0'],
      ['0', { instance: '5', profile: '2g.20gb' }, 'vision', 'vit-notebook-0'],
      ['0', { instance: '13', profile: '1g.10gb' }, 'inference', 'embed-server-7c9f5d-x2k4q'],
    ]);
    expect(countPhysicalGpus(series.map((s) => s.ref))).toBe(1);
    // 4 + 2 + 1 of the H100's 7 compute slices: the whole GPU, once.
    expect(series.map((s) => gpuShareOf(s.ref))).toEqual([4 / 7, 2 / 7, 1 / 7]);
    // MIG has no GPU_UTIL: utilisation comes from GR_ENGINE_ACTIVE, and memory per slice.
    expect(series.every((s) => s.util.every((u) => u === 0))).toBe(true);
    expect(series.map((s) => s.memUsedMiB?.[0])).toEqual([13, 11, 7]);

    // A p5.4xlarge (one H100) idle through the window: one GPU, at the machine's price, not three.
    const [finding, ...rest] = findingsOf(series, box('i-0h100', 1, 6.88));
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ kind: 'gpu.idle', gpus: 1, stalledGpus: 0, burned: toCents(6.88 * HOURS), perDay: toCents(6.88 * 24) });

    // The idle GPU time the waste diagnosis (and the review, which reads it) prices: each slice's
    // idle hours at its share of the GPU, summing to the machine's one GPU, never three.
    const intervals = detectIdleIntervalsMany(series, idlePolicy(), RANGE);
    const time = series.reduce((t, s, i) => addGpuTime(t, s, intervals[i]!, RANGE, null), emptyGpuTime());
    expect((time.idle + time.stalled) / 3600).toBeCloseTo(HOURS, 6);
    expect(time.observed / 3600).toBeCloseTo(HOURS, 6);
  });

  it('A30 pair with three slices: two GPUs; a GPU the machine has beyond them is padded as one GPU', async () => {
    const series = await fetchDump(MIG_A30_EXPOSITION);

    expect(series.map((s) => [s.ref.gpu, s.ref.mig?.profile, s.ref.pod])).toEqual([
      ['0', '2g.12gb', 'hpo-sweep-trial-3'],
      ['0', '2g.12gb', 'hpo-sweep-trial-4'],
      ['1', '4g.24gb', 'rerank-triton-0'],
    ]);
    expect(countPhysicalGpus(series.map((s) => s.ref))).toBe(2);
    // An A30 has 4 compute slices, not 7: two 2g slices are one GPU, one 4g slice is the other.
    expect(series.map((s) => gpuShareOf(s.ref))).toEqual([0.5, 0.5, 1]);
    expect(migShare('nvidia.com/mig-2g.12gb')).toBe(0.5);
    expect(migShare('nvidia.com/mig-3g.40gb')).toBe(3 / 7);

    // trial-4 holds 9 GiB and computes nothing (a hung trial): the machine is stalled, on one of its two GPUs.
    expect(findingsOf(series, box('a30-box', 2, 3.2))).toMatchObject([{ kind: 'gpu.stalled', gpus: 2, stalledGpus: 1 }]);

    // Four GPUs in the inventory, two seen: two missing GPUs, not one (as three slices would have made it).
    expect(findingsOf(series, box('a30-box', 4, 6.4))).toEqual([]);
    expect(findingsOf(series, box('a30-box', 4, 6.4), idlePolicy({ missing: 'idle' }))).toMatchObject([
      { gpus: 4, missingMinutes: HOURS * 60 },
    ]);
  });
});
