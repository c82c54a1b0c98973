import type { GpuSeries, MetricsRange } from '../domain/gpu-metrics.js';

/** A GPU metrics source: one small port, whatever is behind it (Prometheus, CloudWatch, demo). */
export interface GpuMetricsSource {
  readonly id: string;
  readonly type: string;
  /** Every GPU's samples in the range, fetched in a handful of batched queries. */
  fetch(range: MetricsRange): Promise<GpuSeries[]>;
}
