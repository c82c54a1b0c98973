import type { GpuSeries, MetricsRange } from '../domain/gpu-metrics.js';
import type { GpuInstance } from '../domain/gpu-inventory.js';
import type { HostPeak } from '../domain/host-peaks.js';

/** A GPU metrics source: one small port, whatever is behind it (Prometheus, CloudWatch, demo). */
export interface GpuMetricsSource {
  readonly id: string;
  readonly type: string;
  /** Every GPU's samples in the range, fetched in a handful of batched queries. */
  fetch(range: MetricsRange): Promise<GpuSeries[]>;
  /**
   * Only these machines' samples (a Stop click's re-check of one instance), where the backend can be
   * asked for some machines; without it, a read of few instances fetches every GPU and keeps theirs.
   */
  fetchInstances?(range: MetricsRange, instances: readonly GpuInstance[]): Promise<GpuSeries[]>;
  /**
   * The hosts' CPU and memory peaks over the range (node_exporter, EC2 and the CloudWatch agent),
   * for the instances named where the source needs names; absent where the source has none.
   */
  hostPeaks?(range: MetricsRange, instanceIds: readonly string[]): Promise<HostPeak[]>;
}
