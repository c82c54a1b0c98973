import type { GpuSeries, MetricsRange } from '../../domain/gpu-metrics.js';
import type { IdlePolicy } from './idle-policy.js';
import { IdleRuns, type IdleInterval } from './idle-runs.js';
import { hasGaps, idleScan, missingState, scanGrid, scanWithGaps } from './idle-scan.js';

export type { IdleInterval, IdleKind } from './idle-runs.js';

/**
 * Idle, stalled and (under `missing: 'unknown'`) unknown intervals of one GPU within `range`.
 *
 * Sample i covers [times[i], times[i] + step). A sample is missing when its utilisation is NaN, and
 * time not covered by any sample (a gap of more than half a step, before the first sample, or after
 * the last unless within `maxLagMinutes` of the end) is missing too; the policy decides what missing
 * counts as. Intervals still running at the end are marked `open`. Idle and stalled are judged
 * independently, so a stall usually lies inside an idle interval: both are reported, because they
 * answer different questions (is this GPU paid for and unused; is a job hung on it).
 *
 * One pass over the samples, plus one over the times to see whether they have gaps; nothing is
 * allocated per sample.
 */
export function detectIdleIntervals(series: GpuSeries, policy: IdlePolicy, range: MetricsRange): IdleInterval[] {
  const [lo, hi] = samplesIn(series.times, range);
  return detect(series, policy, range, lo, hi, hasGaps(series.times, lo, hi, range.stepSeconds));
}

/**
 * The same for many GPUs. Series fetched together usually share one times array (one query grid),
 * so its gaps are looked for once per array, not once per GPU.
 */
export function detectIdleIntervalsMany(series: readonly GpuSeries[], policy: IdlePolicy, range: MetricsRange): IdleInterval[][] {
  const grids = new Map<Float64Array, { lo: number; hi: number; gaps: boolean }>();
  return series.map((one) => {
    let grid = grids.get(one.times);
    if (!grid) {
      const [lo, hi] = samplesIn(one.times, range);
      grids.set(one.times, (grid = { lo, hi, gaps: hasGaps(one.times, lo, hi, range.stepSeconds) }));
    }
    return detect(one, policy, range, grid.lo, grid.hi, grid.gaps);
  });
}

function detect(series: GpuSeries, policy: IdlePolicy, range: MetricsRange, lo: number, hi: number, gaps: boolean): IdleInterval[] {
  const step = range.stepSeconds;
  const { times } = series;
  const scan = idleScan(series, policy, step);
  const runs = new IdleRuns(policy.minIdleMinutes * 60, (policy.stalled?.minMinutes ?? 0) * 60);

  let state = 0;
  const first = lo < hi ? times[lo]! : range.end;
  if (first - range.start > step / 2) runs.enter((state = missingState(scan, state)), range.start);
  // Without gaps (sources that align samples to the query grid, as Prometheus range queries do),
  // the loop needs no times between state changes.
  state = gaps ? scanWithGaps(scan, runs, lo, hi, state) : scanGrid(scan, runs, lo, hi, state);

  // The newest samples may simply not have arrived: a trailing stretch up to maxLag is not missing,
  // the runs just end, open, where the data ends.
  const covered = lo < hi ? Math.min(times[hi - 1]! + step, range.end) : range.start;
  if (range.end - covered > Math.max(step / 2, policy.maxLagMinutes * 60)) {
    runs.enter(missingState(scan, state), covered);
    return runs.finish(range.end);
  }
  return runs.finish(covered);
}

/** Indices lo..hi-1 of the samples inside the range. */
function samplesIn(times: Float64Array, range: MetricsRange): [number, number] {
  return [firstAtOrAfter(times, range.start), firstAtOrAfter(times, range.end)];
}

/** Index of the first time at or after `at` (times ascend): a binary search, not a scan. */
function firstAtOrAfter(times: Float64Array, at: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid]! < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
