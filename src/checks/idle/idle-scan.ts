import type { GpuSeries } from '../../domain/gpu-metrics.js';
import type { Operator } from '../compare.js';
import { atMost, type AtMost } from './at-most.js';
import type { IdlePolicy } from './idle-policy.js';
import { IDLE, type IdleRuns, NO_DATA, STALLED, UNKNOWN } from './idle-runs.js';

// The per-sample half of idle detection: loops over a series' typed arrays that classify each
// sample into IdleRuns' flags and report only changes. Nothing here allocates per sample.

/**
 * A series and its policy, resolved once per series into what the loops read. Every test is in
 * the form `value × sign ≤ bound` (at-most.ts). A check that does not apply becomes a test that
 * never fires, made on the utilisation array itself (power busy: utilisation ≥ +∞; memory held:
 * utilisation > +∞), so the loops test no nulls.
 */
export interface IdleScan {
  times: Float64Array;
  util: Float32Array;
  power: Float32Array;
  memory: Float32Array;
  step: number;
  utilIdle: AtMost;
  /**
   * Utilisation above this is neither idle nor stall-low: one comparison clears a busy sample. Only
   * known when both tests are "below" tests (lt, lte); otherwise +∞, and every sample is tested in full.
   */
  busyAbove: number;
  /** Power says the GPU works: the negated power test, so a sample without power never does. */
  powerBusy: AtMost;
  stallUtil: AtMost;
  memoryHeld: AtMost;
  /** What missing data counts as: idle (continuing a stall under way), nothing, or unknown. */
  missingFlags: number;
  missingKeeps: number;
}

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
    utilIdle: atMost(utilOp, policy.util.value),
    busyAbove: below(utilOp) && below(stallOp) ? Math.max(policy.util.value, stallLimit) : Number.POSITIVE_INFINITY,
    powerBusy: atMost(NEGATED[powerOp], confirm ? power.value : Number.POSITIVE_INFINITY),
    stallUtil: atMost(stallOp, stallLimit),
    memoryHeld: atMost(stalls ? stalled.memoryMiB.operator : 'gt', stalls ? stalled.memoryMiB.value : Number.POSITIVE_INFINITY),
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
 * sample that changes it goes through `classify`.
 */
export function scanGrid(scan: IdleScan, runs: IdleRuns, lo: number, hi: number, state: number): number {
  const { times } = scan;
  let i = lo;
  while (i < hi) {
    if (state === 0) i = endOfBusy(scan, i, hi);
    else if (state & NO_DATA) i = endOfMissing(scan.util, i, hi);
    else i = endOfFlags(scan, i, hi, state);
    if (i === hi) break;
    const next = classify(scan, i, state);
    if (next !== state) runs.enter((state = next), times[i]!);
    i++;
  }
  return state;
}

// What the loops below are shaped by, measured on 256 GPUs × 7 days (the benchmark's batch):
// - A busy sample is cleared by one comparison, in a loop of its own (`firstNotAbove`): with the
//   full test in the same loop body, even never reached, busy samples took twice as long.
// - The tests are computed without branches (`&` of 0s and 1s, not `&&`): an idle GPU's
//   utilisation jitters around the thresholds, so a branch per test is a coin toss for the
//   predictor. Idle samples took 3.5 ns each in the loops before these, 2.7 here.
// - The hot loops call nothing and read the tests from locals: written as a shared function of
//   the sample, or with the tests read from an object on every sample, idle samples took 2 to 2.5
//   times as long. `sampleFlags` therefore writes out once more what `endOfFlags` tests;
//   idle-scan.test.ts holds the two to each other and to the policy.

/** The first sample from i that is not busy: idle, stalled or missing. */
function endOfBusy(scan: IdleScan, i: number, hi: number): number {
  const { util, power, memory, busyAbove } = scan;
  for (;;) {
    i = firstNotAbove(util, i, hi, busyAbove);
    if (i === hi) return i;
    const u = util[i]!;
    if (u !== u || sampleFlags(scan, u, power[i]!, memory[i]!) !== 0) return i;
    i++;
  }
}

/** The first sample from i whose utilisation is not above `limit` (NaN is not): most busy samples end here. */
function firstNotAbove(util: Float32Array, i: number, hi: number, limit: number): number {
  for (; i < hi; i++) if (!(util[i]! > limit)) break;
  return i;
}

/** The first sample from i whose flags are not `state` (idle, stalled or both); NaN flags nothing, so it ends these. */
function endOfFlags(scan: IdleScan, i: number, hi: number, state: number): number {
  const { util, power, memory } = scan;
  const { sign: us, bound: ub } = scan.utilIdle;
  const { sign: ps, bound: pb } = scan.powerBusy;
  const { sign: ss, bound: sb } = scan.stallUtil;
  const { sign: ms, bound: mb } = scan.memoryHeld;
  for (; i < hi; i++) {
    const u = util[i]!;
    const idle = +(u * us <= ub) & +!(power[i]! * ps <= pb);
    const stalled = +(memory[i]! * ms <= mb) & +(u * ss <= sb);
    if (idle * IDLE + stalled * STALLED !== state) break;
  }
  return i;
}

/** The first sample from i with utilisation. */
function endOfMissing(util: Float32Array, i: number, hi: number): number {
  for (; i < hi; i++) if (util[i] === util[i]) break;
  return i;
}

/**
 * A present sample's flags from its utilisation, power and memory, off the hot path (changes,
 * samples with gaps). Power only confirms: a sample without it is judged by utilisation alone. A
 * sample without memory cannot prove a stall.
 */
function sampleFlags(scan: IdleScan, u: number, p: number, m: number): number {
  const { utilIdle, powerBusy, stallUtil, memoryHeld } = scan;
  const idle = +(u * utilIdle.sign <= utilIdle.bound) & +!(p * powerBusy.sign <= powerBusy.bound);
  const stalled = +(m * memoryHeld.sign <= memoryHeld.bound) & +(u * stallUtil.sign <= stallUtil.bound);
  return idle * IDLE + stalled * STALLED;
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

/** Sample i's flags, given the state before it (which missing data may continue). */
function classify(scan: IdleScan, i: number, state: number): number {
  const u = scan.util[i]!;
  return u !== u ? missingState(scan, state) : sampleFlags(scan, u, scan.power[i]!, scan.memory[i]!);
}
