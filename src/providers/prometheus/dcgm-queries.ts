import type { StepGrid } from '../../domain/gpu-step-grid.js';
import { selector, type LabelMatcher } from './machine-matchers.js';

/** Where a DCGM metric's samples go in a GpuSeries. */
export type DcgmSlot = 'engineActive' | 'gpuUtil' | 'power' | 'memUsed';

export interface DcgmMetric {
  readonly name: string;
  /** What dcgm-exporter 1.x called it: still running on older clusters. */
  readonly legacyName: string;
  readonly slot: DcgmSlot;
}

/**
 * The DCGM exporter metrics a fetch reads: one query_range each, whatever the number of GPUs.
 * GR_ENGINE_ACTIVE (a 0–1 ratio, needs DCP profiling) is the better busy signal; GPU_UTIL (0–100)
 * is what every exporter has.
 */
export const DCGM_METRICS: readonly DcgmMetric[] = [
  { name: 'DCGM_FI_PROF_GR_ENGINE_ACTIVE', legacyName: 'dcgm_fi_prof_gr_engine_active', slot: 'engineActive' },
  { name: 'DCGM_FI_DEV_GPU_UTIL', legacyName: 'dcgm_gpu_utilization', slot: 'gpuUtil' },
  { name: 'DCGM_FI_DEV_POWER_USAGE', legacyName: 'dcgm_power_usage', slot: 'power' },
  { name: 'DCGM_FI_DEV_FB_USED', legacyName: 'dcgm_fb_used', slot: 'memUsed' },
];

/**
 * Labels kept per GPU. Aggregating by them server side drops the driver/serial/device labels the
 * exporter repeats on every series (smaller answers) and folds duplicate scrapes into one series.
 * `exported_*` appear when Prometheus Operator scrapes the exporter without honorLabels: then
 * `pod` is the exporter's own pod and the workload's is `exported_pod`. `GPU_I_ID` is the MIG
 * instance: with MIG, each slice of a GPU is its own series with its own pod, under its parent's
 * `gpu` and `UUID`; `GPU_I_PROFILE` (`3g.40gb`) says how much of the GPU it is. Exporters since
 * May 2026 (4.6 and later) spell the host label `hostname`. A GPU allocated by Dynamic Resource
 * Allocation carries its ResourceClaim (`dra_claim_namespace`, `dra_claim_name`), which names the
 * pods sharing it, and a MIG device so allocated its profile (`dra_mig_profile`).
 */
export const DCGM_GROUP_LABELS = [
  'Hostname',
  'hostname',
  'gpu',
  'GPU_I_ID',
  'GPU_I_PROFILE',
  'UUID',
  'modelName',
  'namespace',
  'pod',
  'container',
  'exported_namespace',
  'exported_pod',
  'exported_container',
  'instance',
  'dra_claim_namespace',
  'dra_claim_name',
  'dra_mig_profile',
  // dcgm-exporter 1.x
  'uuid',
  'pod_name',
  'pod_namespace',
  'container_name',
] as const;

/**
 * One query per metric for both exporter generations: `or` takes whichever the cluster has. With
 * matchers, only the series some matcher selects (a few machines' GPUs, machine-matchers.ts).
 */
export function buildGpuQuery(metric: Pick<DcgmMetric, 'name' | 'legacyName'>, matchers: readonly LabelMatcher[] = []): string {
  const names = [metric.name, metric.legacyName];
  const selectors = matchers.length === 0 ? names : names.flatMap((name) => matchers.map((m) => selector(name, m)));
  return `max by (${DCGM_GROUP_LABELS.join(', ')}) (${selectors.join(' or ')})`;
}

/** Prometheus refuses a query_range whose (end - start) / step exceeds this. */
export const PROMETHEUS_MAX_POINTS = 11_000;

/** One query_range call: evaluation times start, start + step, ..., end (inclusive, as Prometheus counts). */
export interface QueryWindow {
  start: number;
  end: number;
  step: number;
}

/** Splits the grid into as few query_range windows as Prometheus' points-per-series limit allows. */
export function planWindows(grid: StepGrid, maxPoints: number = PROMETHEUS_MAX_POINTS): QueryWindow[] {
  const windows: QueryWindow[] = [];
  for (let first = 0; first < grid.length; first += maxPoints) {
    const last = Math.min(grid.length, first + maxPoints) - 1;
    windows.push({ start: grid.start + first * grid.step, end: grid.start + last * grid.step, step: grid.step });
  }
  return windows;
}
