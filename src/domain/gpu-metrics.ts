/**
 * GPU metrics as the idle checks read them: one series per GPU, columnar typed arrays so that
 * days of one-minute samples for thousands of GPUs scan without an object per sample.
 */

/** Which GPU a series belongs to, with the labels the sources give (DCGM, nvidia-smi, CloudWatch). */
export interface GpuRef {
  /** The machine: cloud instance id where known, else the host name. */
  host: string;
  /** Index of the physical GPU on the host ("0", "1", ...); a MIG slice carries its parent GPU's. */
  gpu: string;
  /** The physical GPU's UUID (a MIG slice's parent's, as dcgm-exporter labels it). */
  uuid?: string;
  model?: string;
  /**
   * The MIG slice (GPU instance) of GPU `gpu` this series measures; absent for a whole GPU. Each
   * slice has its own series and pod; counts and prices still go by physical GPUs (physical-gpus.ts).
   */
  mig?: { instance: string; profile?: string };
  /** Kubernetes placement, when the exporter maps GPUs to pods. */
  namespace?: string;
  pod?: string;
  container?: string;
  /**
   * The ResourceClaim the GPU is allocated through (Dynamic Resource Allocation): it names the pods
   * using the GPU where the exporter gives no pod, and several pods where they share it.
   */
  claim?: { namespace: string; name: string };
}

export interface GpuSeries {
  ref: GpuRef;
  /** Sample times, seconds since the epoch, ascending. */
  times: Float64Array;
  /** Utilisation 0–100 (GR_ENGINE_ACTIVE × 100 when present, else GPU_UTIL); NaN where missing. */
  util: Float32Array;
  /** Power draw in watts; NaN where missing; null when the source has none at all. */
  power: Float32Array | null;
  /** Framebuffer memory used, MiB; NaN where missing; null when the source has none at all. */
  memUsedMiB: Float32Array | null;
}

export interface MetricsRange {
  /** Inclusive start and exclusive end, seconds since the epoch. */
  start: number;
  end: number;
  stepSeconds: number;
}

/** Stable order of series: by host, then GPU index numerically (0, 1, ..., 10), then MIG slice. */
export function compareRefs(a: GpuSeries, b: GpuSeries): number {
  const numeric = (x: string, y: string) => x.localeCompare(y, 'en', { numeric: true });
  return (
    a.ref.host.localeCompare(b.ref.host) || numeric(a.ref.gpu, b.ref.gpu) || numeric(a.ref.mig?.instance ?? '', b.ref.mig?.instance ?? '')
  );
}
