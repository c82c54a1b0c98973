import { describe, expect, it } from 'vitest';
import { idleEvidence } from '../../../src/checks/idle/idle-evidence.js';
import type { GpuSeries } from '../../../src/domain/gpu-metrics.js';

const series = (util: number[], mem: number[] | null, power: number[] | null, gpu = '0'): GpuSeries => ({
  ref: { host: 'i-1', gpu },
  times: Float64Array.from(util.map((_, i) => 1000 + i * 60)),
  util: Float32Array.from(util),
  memUsedMiB: mem ? Float32Array.from(mem) : null,
  power: power ? Float32Array.from(power) : null,
});

describe('the figures behind an idle finding', () => {
  it('averages utilisation, memory and power over the idle period only, across the GPUs', () => {
    // Samples at 1000, 1060, 1120, 1180: the period [1060, 1180) takes the middle two of each GPU.
    const e = idleEvidence(
      [series([90, 1, 3, 80], [0, 1024, 3072, 0], [300, 60, 62, 300]), series([90, 0, 0, 80], [0, 0, 0, 0], [300, 58, 60, 300], '1')],
      1060,
      1180,
    );
    expect(e).toEqual({
      utilMeanPct: (1 + 3 + 0 + 0) / 4,
      utilMaxPct: 3,
      memUsedGiB: Math.round(((1024 + 3072 + 0 + 0) / 4 / 1024) * 10) / 10,
      powerWattsPerGpu: Math.round((60 + 62 + 58 + 60) / 4),
    });
  });

  it('says nothing of what the source does not measure, and skips missing samples', () => {
    expect(idleEvidence([series([Number.NaN, 2, Number.NaN], null, null)], 0, 10_000)).toEqual({
      utilMeanPct: 2,
      utilMaxPct: 2,
      memUsedGiB: null,
      powerWattsPerGpu: null,
    });
  });
});
