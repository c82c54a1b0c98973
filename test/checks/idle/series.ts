import type { GpuSeries, MetricsRange } from '../../../src/domain/gpu-metrics.js';

/** Monday 16 November 2026, 00:00 UTC, in seconds: the start of every synthetic series. */
export const T0 = Date.UTC(2026, 10, 16) / 1000;
export const MIN = 60;

/** `count` copies of `value`. */
export const repeat = (value: number, count: number): number[] => Array.from({ length: count }, () => value);

/** Joins runs of samples: seq(repeat(90, 30), repeat(0, 60)). */
export const seq = (...parts: number[][]): number[] => parts.flat();

export interface SeriesOptions {
  start?: number;
  step?: number;
  power?: number[];
  memory?: number[];
  /** Explicit sample times (for gaps); default one sample per step from `start`. */
  times?: number[];
  /** The GPU's index on host-a; default "0". Series of one instance's GPUs need their own. */
  gpu?: string;
}

/** A one-GPU series of one-minute samples from T0 (NaN = missing). */
export function series(util: number[], options: SeriesOptions = {}): GpuSeries {
  const start = options.start ?? T0;
  const step = options.step ?? MIN;
  const times = options.times ?? util.map((_, i) => start + i * step);
  return {
    ref: { host: 'host-a', gpu: options.gpu ?? '0' },
    times: Float64Array.from(times),
    util: Float32Array.from(util),
    power: options.power ? Float32Array.from(options.power) : null,
    memUsedMiB: options.memory ? Float32Array.from(options.memory) : null,
  };
}

/** The range `minutes` long from T0 (or `start`), one-minute steps. */
export function minutes(count: number, start = T0): MetricsRange {
  return { start, end: start + count * MIN, stepSeconds: MIN };
}

/** Times of `count` samples from T0, leaving out the minutes in [from, to). */
export function timesWithout(count: number, from: number, to: number): number[] {
  return Array.from({ length: count }, (_, i) => T0 + i * MIN).filter((_, i) => i < from || i >= to);
}
