import type { GpuSeries } from '../../domain/gpu-metrics.js';
import { OPERATORS, type Operator } from '../compare.js';
import type { IdlePolicy } from './idle-policy.js';
import { IDLE, type IdleRuns, NO_DATA, STALLED, UNKNOWN } from './idle-runs.js';

// The per-sample half of idle detection: two loops over a series' typed arrays that classify each
// sample into IdleRuns' flags and report only changes. Nothing here allocates per sample.

/**
 * A series and its policy, resolved once per series into what the loops read. A check that does
 * not apply becomes a comparison that never fires, made on the utilisation array itself (power
 * busy: utilisation ≥ +∞; memory held: utilisation > +∞), so the loops test no nulls.
 */
export interface IdleScan {
  times: Float64Array;
  util: Float32Array;
  power: Float32Array;
  memory: Float32Array;
  step: number;
  utilIdle: Compare;
  utilLimit: number;
  /**
   * Utilisation above this is neither idle nor stall-low: one comparison clears a busy sample. Only
   * known when both tests are "below" tests (lt, lte); otherwise +∞, and every sample is tested in full.
   */
  busyAbove: number;
  /** Power says the GPU works: the negated power test, so a sample without power never does. */
  powerBusy: Compare;
  powerLimit: number;
  stallUtil: Compare;
  stallUtilLimit: number;
  memoryHeld: Compare;
  memoryLimit: number;
  /** What missing data counts as: idle (continuing a stall under way), nothing, or unknown. */
  missingFlags: number;
  missingKeeps: number;
}

type Compare = (value: number, limit: number) => boolean;

/** For numbers, not (a < b) is a >= b; unlike `!`, the negation stays false for NaN, so missing power never says busy. */
const NEGATED: Record<Operator, Operator> = { lt: 'gte', lte: 'gt', gt: 'lte', gte: 'lt' };

export function idleScan(series: GpuSeries, policy: IdlePolicy, step: number): IdleScan {
  const { util } = series;
  const { power, stalled, missing } = policy;
  const confirm = power !== null && series.power !== null;
  const stalls = stalled !== null && series.memUsedMiB !== null;
  const utilOp = policy.util.operator;
  const powerOp = confirm ? power.operator : 'lt';
  const stallOp = stalled?.util.operator ?? 'lte';
  const stallLimit = stalled?.util.value ?? 0;
  const below = (op: Operator) => op === 'lt' || op === 'lte';
  return {
    times: series.times,
    util,
    power: confirm ? series.power! : util,
    memory: stalls ? series.memUsedMiB! : util,
    step,
    utilIdle: OPERATORS[utilOp],
    utilLimit: policy.util.value,
    busyAbove: below(utilOp) && below(stallOp) ? Math.max(policy.util.value, stallLimit) : Number.POSITIVE_INFINITY,
    powerBusy: OPERATORS[NEGATED[powerOp]],
    powerLimit: confirm ? power.value : Number.POSITIVE_INFINITY,
    stallUtil: OPERATORS[stallOp],
    stallUtilLimit: stallLimit,
    memoryHeld: OPERATORS[stalls ? stalled.memoryMiB.operator : 'gt'],
    memoryLimit: stalls ? stalled.memoryMiB.value : Number.POSITIVE_INFINITY,
    missingFlags: missing === 'idle' ? IDLE | NO_DATA : missing === 'unknown' ? UNKNOWN | NO_DATA : NO_DATA,
    missingKeeps: missing === 'idle' ? STALLED : 0,
  };
}

/** The flags of missing time, given the state before it. */
export function missingState(scan: IdleScan, state: number): number {
  return scan.missingFlags | (state & scan.missingKeeps);
}

/**
 * Samples lo..hi-1 of a series without gaps between them. Each state has its own tight loop that
 * skips the samples keeping it (in a fleet, long stretches: hours busy, nights idle); only the
 * sample that changes it goes through `classify`. Tests are ordered for the branch predictor:
 * whether memory is held changes rarely, while an idle GPU's utilisation jitters between 0 and 3%.
 * NaN fails every comparison, so a missing sample ends every loop but the missing one.
 */
export function scanGrid(scan: IdleScan, runs: IdleRuns, lo: number, hi: number, state: number): number {
  const {
    times,
    util,
    power,
    memory,
    utilIdle,
    utilLimit,
    busyAbove,
    powerBusy,
    powerLimit,
    stallUtil,
    stallUtilLimit,
    memoryHeld,
    memoryLimit,
  } = scan;
  let i = lo;
  while (i < hi) {
    if (state === 0) {
      for (; i < hi; i++) {
        const u = util[i]!;
        if (u > busyAbove) continue;
        if (
          u !== u ||
          (utilIdle(u, utilLimit) && !powerBusy(power[i]!, powerLimit)) ||
          (stallUtil(u, stallUtilLimit) && memoryHeld(memory[i]!, memoryLimit))
        )
          break;
      }
    } else if (state === IDLE) {
      for (; i < hi; i++) {
        const u = util[i]!;
        if (!utilIdle(u, utilLimit) || powerBusy(power[i]!, powerLimit)) break;
        if (memoryHeld(memory[i]!, memoryLimit) && stallUtil(u, stallUtilLimit)) break;
      }
    } else if (state === STALLED || state === (IDLE | STALLED)) {
      const idle = state & IDLE;
      for (; i < hi; i++) {
        const u = util[i]!;
        if (!memoryHeld(memory[i]!, memoryLimit) || !stallUtil(u, stallUtilLimit)) break;
        if ((utilIdle(u, utilLimit) && !powerBusy(power[i]!, powerLimit) ? IDLE : 0) !== idle) break;
      }
    } else {
      for (; i < hi; i++) if (util[i] === util[i]) break;
    }
    if (i === hi) break;
    const next = classify(scan, i, state);
    if (next !== state) runs.enter((state = next), times[i]!);
    i++;
  }
  return state;
}

/** Samples lo..hi-1 of a series with gaps: time between samples more than 1.5 steps apart is missing. */
export function scanWithGaps(scan: IdleScan, runs: IdleRuns, lo: number, hi: number, state: number): number {
  const { times, step } = scan;
  const maxGap = step * 1.5;
  for (let i = lo; i < hi; i++) {
    if (i > lo && times[i]! - times[i - 1]! > maxGap) {
      const gap = missingState(scan, state);
      if (gap !== state) runs.enter((state = gap), times[i - 1]! + step);
    }
    const next = classify(scan, i, state);
    if (next !== state) runs.enter((state = next), times[i]!);
  }
  return state;
}

/** Whether any two samples in lo..hi-1 lie more than 1.5 steps apart: one tight pass over the times. */
export function hasGaps(times: Float64Array, lo: number, hi: number, step: number): boolean {
  if (hi - lo < 2) return false;
  const maxGap = step * 1.5;
  let previous = times[lo]!;
  for (let i = lo + 1; i < hi; i++) {
    const t = times[i]!;
    if (t - previous > maxGap) return true;
    previous = t;
  }
  return false;
}

/**
 * Sample i's flags: the definition every loop above must agree with. Power only confirms: a sample
 * without it is judged by utilisation alone. A sample without memory cannot prove a stall.
 */
function classify(scan: IdleScan, i: number, state: number): number {
  const u = scan.util[i]!;
  if (u !== u) return missingState(scan, state);
  const idle = scan.utilIdle(u, scan.utilLimit) && !scan.powerBusy(scan.power[i]!, scan.powerLimit);
  const stalled = scan.memoryHeld(scan.memory[i]!, scan.memoryLimit) && scan.stallUtil(u, scan.stallUtilLimit);
  return (idle ? IDLE : 0) | (stalled ? STALLED : 0);
}
