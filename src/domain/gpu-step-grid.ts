import type { MetricsRange } from './gpu-metrics.js';
import { BurnrateError } from './errors.js';

/**
 * The sample times a fetch fills: start, start + step, ... before end (end is exclusive).
 * Every source aligns its samples to this grid so that series from different sources line up.
 * (CloudWatch imports it too; it could move beside the domain types once both sources settle.)
 */
export interface StepGrid {
  readonly start: number;
  readonly step: number;
  readonly length: number;
  /** Grid slot of a sample time, rounded to the nearest slot; -1 when it falls outside the grid. */
  indexOf(time: number): number;
  /** A fresh Float64Array of the grid's times. */
  times(): Float64Array;
  /** A fresh Float32Array of the grid's length, all NaN (missing). */
  empty(): Float32Array;
}

/**
 * The most samples one series may have in one fetch. The longest window burnrate reads fits with
 * room to spare (the waste diagnosis' 92 days of five-minute samples: 26,496; the idle check's 14
 * days of minutes at most: 20,160); anything longer is a bug or a hostile period, and is refused
 * before a query is sent or an array is allocated. A month typed as 0042-01 once asked for 200
 * million samples per series and grew the process to 4 GB.
 */
export const MAX_SERIES_SAMPLES = 30_000;

/** How many samples per series a range needs, once it is known to be a range worth asking for. */
export function sampleCountOf(range: MetricsRange): number {
  const { start, end, stepSeconds: step } = range;
  if (!Number.isFinite(start) || !Number.isFinite(end) || !(step > 0) || !Number.isFinite(step)) {
    throw new BurnrateError(
      'burnrate_metrics_range_invalid',
      `Invalid metrics range: start ${start}, end ${end}, step ${step}s.`,
      'Give start and end in seconds since the epoch and a positive step.',
    );
  }
  const length = Math.max(0, Math.ceil((end - start) / step));
  if (length > MAX_SERIES_SAMPLES) {
    const days = Math.round((end - start) / 86_400);
    throw new BurnrateError(
      'burnrate_metrics_range_too_long',
      `A metrics window of ${days.toLocaleString('en-US')} days at one sample every ${step}s needs ${length.toLocaleString('en-US')} samples per series; burnrate reads at most ${MAX_SERIES_SAMPLES.toLocaleString('en-US')}.`,
      'Ask for a shorter period, e.g. one month.',
    );
  }
  return length;
}

export function createStepGrid(range: MetricsRange): StepGrid {
  const { start, stepSeconds: step } = range;
  const length = sampleCountOf(range);
  return {
    start,
    step,
    length,
    indexOf(time) {
      const i = Math.round((time - start) / step);
      return i >= 0 && i < length ? i : -1;
    },
    times() {
      const out = new Float64Array(length);
      for (let i = 0; i < length; i++) out[i] = start + i * step;
      return out;
    },
    empty() {
      return new Float32Array(length).fill(Number.NaN);
    },
  };
}

/**
 * Writes a sample into a slot. Two series can land on the same GPU (a pod changed, two scrapers,
 * two CloudWatch dimension sets): where both have a value the larger wins, so a GPU that any
 * source saw busy is never reported idle.
 */
export function putSample(target: Float32Array, index: number, value: number): void {
  if (Number.isNaN(value)) return;
  const current = target[index]!;
  target[index] = Number.isNaN(current) || value > current ? value : current;
}
