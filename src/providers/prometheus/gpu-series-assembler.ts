import { compareRefs, type GpuRef, type GpuSeries } from '../../domain/gpu-metrics.js';
import type { DcgmSlot } from './dcgm-queries.js';
import { putSample, type StepGrid } from '../../domain/gpu-step-grid.js';
import { seriesKey } from '../../domain/physical-gpus.js';

interface GpuEntry {
  ref: GpuRef;
  /** Time of the newest sample seen from the series the labels came from. */
  refTime: number;
  slots: Partial<Record<DcgmSlot, Float32Array>>;
}

/**
 * Joins the per-metric series of a fetch into one GpuSeries per GPU (or MIG slice), keyed by (host, gpu, slice).
 * A GPU can arrive as several series per metric (its pod changed during the range, two scrapers):
 * their samples merge into one row and the labels of the most recent series win.
 */
export class GpuSeriesAssembler {
  private readonly gpus = new Map<string, GpuEntry>();
  /** Series without a host or gpu label (e.g. a PROF metric exported without labels). */
  skippedSeries = 0;

  constructor(private readonly grid: StepGrid) {}

  add(slot: DcgmSlot, labels: Readonly<Record<string, string>>, times: Float64Array, values: Float64Array, count: number): void {
    const ref = refFromLabels(labels);
    if (!ref) {
      this.skippedSeries++;
      return;
    }
    const key = seriesKey(ref);
    let entry = this.gpus.get(key);
    const newest = count > 0 ? times[count - 1]! : Number.NEGATIVE_INFINITY;
    if (!entry) {
      entry = { ref, refTime: newest, slots: {} };
      this.gpus.set(key, entry);
    } else if (newest > entry.refTime) {
      entry.ref = ref;
      entry.refTime = newest;
    }
    const target = (entry.slots[slot] ??= this.grid.empty());
    for (let i = 0; i < count; i++) {
      const index = this.grid.indexOf(times[i]!);
      if (index >= 0) putSample(target, index, values[i]!);
    }
  }

  build(): GpuSeries[] {
    const times = this.grid.times();
    const out: GpuSeries[] = [];
    for (const { ref, slots } of this.gpus.values()) {
      out.push({ ref, times, util: utilisation(this.grid, slots), power: slots.power ?? null, memUsedMiB: slots.memUsed ?? null });
    }
    return out.sort(compareRefs);
  }
}

/**
 * GR_ENGINE_ACTIVE × 100 where it has a sample, GPU_UTIL elsewhere. Falling back per sample (not
 * per GPU) matters: DCGM drops profiling metrics while another profiler (Nsight) holds the GPU.
 */
function utilisation(grid: StepGrid, slots: GpuEntry['slots']): Float32Array {
  const active = slots.engineActive;
  const util = slots.gpuUtil;
  if (!active) return util ?? grid.empty();
  const out = grid.empty();
  for (let i = 0; i < out.length; i++) {
    const a = active[i]!;
    out[i] = Number.isNaN(a) ? (util ? util[i]! : Number.NaN) : a * 100;
  }
  return out;
}

/** DCGM labels → GpuRef; null when the series cannot be tied to one GPU. */
export function refFromLabels(labels: Readonly<Record<string, string>>): GpuRef | null {
  const host = labels.Hostname || labels.hostname || labels.instance;
  if (!host || labels.gpu === undefined || labels.gpu === '') return null;
  const ref: GpuRef = { host, gpu: labels.gpu };
  // 1.x exporters spell them uuid, pod_namespace, pod_name, container_name.
  const uuid = labels.UUID || labels.uuid;
  const model = labels.modelName;
  const namespace = labels.exported_namespace || labels.namespace || labels.pod_namespace;
  const pod = labels.exported_pod || labels.pod || labels.pod_name;
  const container = labels.exported_container || labels.container || labels.container_name;
  if (uuid) ref.uuid = uuid;
  if (model) ref.model = model;
  if (namespace) ref.namespace = namespace;
  if (pod) ref.pod = pod;
  if (container) ref.container = container;
  if (labels.dra_claim_name && labels.dra_claim_namespace)
    ref.claim = { namespace: labels.dra_claim_namespace, name: labels.dra_claim_name };
  // A MIG slice is its own series under its parent GPU's index and UUID: each slice may serve another pod.
  const profile = labels.GPU_I_PROFILE || labels.dra_mig_profile;
  if (labels.GPU_I_ID) ref.mig = { instance: labels.GPU_I_ID, ...(profile ? { profile } : {}) };
  return ref;
}
