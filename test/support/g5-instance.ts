import type { GpuInstance } from '../../src/domain/gpu-inventory.js';
import type { GpuRef, GpuSeries } from '../../src/domain/gpu-metrics.js';
import { UNTAGGED } from '../../src/domain/spend.js';

// The GPU machine and series the read models' attribution tests match metrics to: what matters is
// the instance's id, team and host names, and which series carries which host and labels.

/** An on-demand g5.12xlarge (4 A10G) of `team` (UNTAGGED: no owner tag), known to metrics by `hostNames`. */
export function g5Instance(instanceId: string, team: string, hostNames: string[] = []): GpuInstance {
  return {
    instanceId,
    name: null,
    provider: 'aws',
    region: 'us-east-1',
    instanceType: 'g5.12xlarge',
    gpuModel: 'A10G',
    gpuCount: 4,
    gpuMemoryGiB: 96,
    hourlyPrice: 5.672,
    lifecycle: 'on-demand',
    team,
    ownerTag: team === UNTAGGED ? null : team,
    workload: 'unknown',
    protected: false,
    owner: null,
    tags: {},
    hostNames,
  };
}

/** A series of one idle sample, for the reference it carries. */
export function seriesOf(ref: GpuRef): GpuSeries {
  return { ref, times: new Float64Array([0]), util: new Float32Array([0]), power: null, memUsedMiB: null };
}
