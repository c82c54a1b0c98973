import { describe, expect, it } from 'vitest';
import { buildGpuQuery, planWindows } from '../../../src/providers/prometheus/dcgm-queries.js';
import { GpuSeriesAssembler, refFromLabels } from '../../../src/providers/prometheus/gpu-series-assembler.js';
import { createStepGrid } from '../../../src/domain/gpu-step-grid.js';
import { BurnrateError } from '../../../src/domain/errors.js';

const T0 = 1_800_000_000;

function add(
  assembler: GpuSeriesAssembler,
  slot: Parameters<GpuSeriesAssembler['add']>[0],
  labels: Record<string, string>,
  samples: [number, number][],
): void {
  assembler.add(
    slot,
    labels,
    Float64Array.from(samples, (s) => s[0]),
    Float64Array.from(samples, (s) => s[1]),
    samples.length,
  );
}

describe('step grid and query windows', () => {
  it('counts slots with an exclusive end and rounds sample times to the nearest slot', () => {
    const grid = createStepGrid({ start: T0, end: T0 + 3600, stepSeconds: 60 });
    expect(grid.length).toBe(60);
    expect(grid.indexOf(T0 + 59 * 60)).toBe(59);
    expect(grid.indexOf(T0 + 60 * 60)).toBe(-1);
    expect(grid.indexOf(T0 + 89.9)).toBe(1);
    expect(grid.indexOf(T0 - 31)).toBe(-1);
    expect(createStepGrid({ start: T0, end: T0 + 61, stepSeconds: 60 }).length).toBe(2);
    expect(() => createStepGrid({ start: T0, end: T0 + 60, stepSeconds: 0 })).toThrow(BurnrateError);
  });

  it('plans one window per 11,000 points', () => {
    const step = 15;
    expect(planWindows(createStepGrid({ start: T0, end: T0 + 11_000 * step, stepSeconds: step }))).toEqual([
      { start: T0, end: T0 + 10_999 * step, step },
    ]);
    // The idle check's longest window: 14 days of minutes, 20,160 points.
    const windows = planWindows(createStepGrid({ start: T0, end: T0 + 14 * 86_400, stepSeconds: 60 }));
    expect(windows).toHaveLength(2);
    for (const w of windows) expect((w.end - w.start) / w.step).toBeLessThan(11_000);
    expect(windows[1]!.end).toBe(T0 + 20_159 * 60);
    // 30 days of minutes (43,200 points) is past the per-series cap: refused before any query.
    expect(() => createStepGrid({ start: T0, end: T0 + 30 * 86_400, stepSeconds: 60 })).toThrow(/at most 30,000/);
  });

  it('aggregates by the GPU labels so that info labels and duplicate scrapes fold away', () => {
    expect(buildGpuQuery({ name: 'DCGM_FI_DEV_GPU_UTIL', legacyName: 'dcgm_gpu_utilization' })).toBe(
      'max by (Hostname, hostname, gpu, GPU_I_ID, GPU_I_PROFILE, UUID, modelName, namespace, pod, container, exported_namespace, exported_pod, exported_container, instance, dra_claim_namespace, dra_claim_name, dra_mig_profile, uuid, pod_name, pod_namespace, container_name) (DCGM_FI_DEV_GPU_UTIL or dcgm_gpu_utilization)',
    );
  });
});

describe('GpuSeriesAssembler', () => {
  const grid = createStepGrid({ start: T0, end: T0 + 600, stepSeconds: 60 });

  it('joins a GPU whose pod changed mid-range into one series, labelled by the latest pod', () => {
    const assembler = new GpuSeriesAssembler(grid);
    add(assembler, 'gpuUtil', { Hostname: 'n1', gpu: '2', pod: 'train-b', namespace: 'ml' }, [
      [T0 + 300, 90],
      [T0 + 540, 95],
    ]);
    add(assembler, 'gpuUtil', { Hostname: 'n1', gpu: '2', pod: 'train-a', namespace: 'ml' }, [
      [T0, 10],
      [T0 + 240, 20],
    ]);
    add(assembler, 'power', { Hostname: 'n1', gpu: '2' }, [[T0 + 60, 150]]);
    const [series, ...rest] = assembler.build();
    expect(rest).toEqual([]);
    expect(series!.ref).toEqual({ host: 'n1', gpu: '2', pod: 'train-b', namespace: 'ml' });
    expect([...series!.util]).toEqual([10, NaN, NaN, NaN, 20, 90, NaN, NaN, NaN, 95]);
    expect(series!.power![1]).toBe(150);
    expect(series!.memUsedMiB).toBeNull();
  });

  it("reads dcgm-exporter 1.x's labels: uuid, pod_namespace, pod_name, container_name", () => {
    const assembler = new GpuSeriesAssembler(grid);
    add(
      assembler,
      'gpuUtil',
      { instance: '10.0.1.5:9400', gpu: '0', uuid: 'GPU-1', pod_namespace: 'ml', pod_name: 'nb-0', container_name: 'jupyter' },
      [[T0, 5]],
    );
    expect(assembler.build()[0]!.ref).toEqual({
      host: '10.0.1.5:9400',
      gpu: '0',
      uuid: 'GPU-1',
      namespace: 'ml',
      pod: 'nb-0',
      container: 'jupyter',
    });
  });

  it('keeps each MIG slice of a GPU apart, each with its own pod', () => {
    const assembler = new GpuSeriesAssembler(grid);
    add(assembler, 'gpuUtil', { Hostname: 'n1', gpu: '0', GPU_I_ID: '1', GPU_I_PROFILE: '3g.20gb', pod: 'sweep-worker', namespace: 'ml' }, [
      [T0, 80],
    ]);
    add(assembler, 'gpuUtil', { Hostname: 'n1', gpu: '0', GPU_I_ID: '9', GPU_I_PROFILE: '1g.5gb', pod: 'train-42', namespace: 'ml' }, [
      [T0, 0],
    ]);
    // Under the parent GPU's index: the slices are two series, one GPU.
    expect(assembler.build().map((s) => [s.ref.gpu, s.ref.mig, s.ref.pod, s.util[0]])).toEqual([
      ['0', { instance: '1', profile: '3g.20gb' }, 'sweep-worker', 80],
      ['0', { instance: '9', profile: '1g.5gb' }, 'train-42', 0],
    ]);
  });

  it('keeps the larger value where two series overlap, so a GPU seen busy is busy', () => {
    const assembler = new GpuSeriesAssembler(grid);
    add(assembler, 'gpuUtil', { Hostname: 'n1', gpu: '0', instance: 'a:9400' }, [[T0, 0]]);
    add(assembler, 'gpuUtil', { Hostname: 'n1', gpu: '0', instance: 'b:9400' }, [[T0, 70]]);
    expect(assembler.build()[0]!.util[0]).toBe(70);
  });

  it('maps DCGM labels to a GpuRef, preferring exported_* workload labels', () => {
    expect(
      refFromLabels({
        Hostname: 'n',
        gpu: '1',
        UUID: 'GPU-1',
        modelName: 'NVIDIA A10G',
        pod: 'dcgm-exporter-x',
        exported_pod: 'job-7',
        exported_namespace: 'ml',
      }),
    ).toEqual({
      host: 'n',
      gpu: '1',
      uuid: 'GPU-1',
      model: 'NVIDIA A10G',
      pod: 'job-7',
      namespace: 'ml',
    });
    expect(refFromLabels({ instance: '10.0.0.5:9400', gpu: '0' })).toEqual({ host: '10.0.0.5:9400', gpu: '0' });
    expect(refFromLabels({ Hostname: 'n' })).toBeNull();
    expect(refFromLabels({ gpu: '0' })).toBeNull();
  });
});
