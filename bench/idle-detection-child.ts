// One measured process of the idle-detection benchmark, so the peak RSS it reports is its own.
//   node dist/bench/idle-detection-child.js <gpus> <days> <runs> <batch>
// Prints one JSON line (IdleChildResult).
//
// Memory layout: every GPU is sampled on the same one-minute grid, so ONE Float64Array of times is
// shared by all series. util, power and memory are Float32Arrays for `batch` GPUs at a time, allocated
// once and refilled per batch (generation is not timed); each GpuSeries is a set of subarray views.
// Peak RSS is therefore Node + 8 B × samples per GPU + 12 B × samples × batch, not 12 B × 100 M.

import { detectIdleIntervals, detectIdleIntervalsMany } from '../src/checks/idle/detect-idle.js';
import { idlePolicy } from '../src/checks/idle/idle-policy.js';
import type { GpuSeries } from '../src/domain/gpu-metrics.js';

export interface IdleChildResult {
  samples: number;
  /**
   * Per run, summed over batches, generation excluded: detection of each batch in one call (the
   * path idleFindings takes), detection one series per call, and the floor scan; wall time, and
   * (`cpu`) the process's CPU time over the same stretches, which time taken by other processes on
   * a loaded machine does not inflate.
   */
  runs: {
    detectMs: number;
    singleMs: number;
    floorMs: number;
    generateMs: number;
    cpu: { detectMs: number; singleMs: number; floorMs: number };
  }[];
  intervals: { idle: number; stalled: number; unknown: number };
  underThreshold: number;
  startRssMb: number;
  peakRssMb: number;
  timesKiB: number;
  batchMiB: number;
}

const STEP = 60;
const START = Date.UTC(2026, 10, 16) / 1000;
const THRESHOLD = 5;

const [gpus, days, runs, batch] = process.argv.slice(2, 6).map(Number) as [number, number, number, number];
const startRssMb = rssMb();
const n = (days * 86_400) / STEP;
const times = new Float64Array(n);
for (let i = 0; i < n; i++) times[i] = START + i * STEP;
const util = new Float32Array(batch * n);
const power = new Float32Array(batch * n);
const memory = new Float32Array(batch * n);
const slots: GpuSeries[] = Array.from({ length: batch }, (_, k) => ({
  ref: { host: `host-${k}`, gpu: '0' },
  times,
  util: util.subarray(k * n, (k + 1) * n),
  power: power.subarray(k * n, (k + 1) * n),
  memUsedMiB: memory.subarray(k * n, (k + 1) * n),
}));
const range = { start: START, end: START + n * STEP, stepSeconds: STEP };
const policy = idlePolicy({ power: { value: 60 } });

/** Detection over the batch's first `count` GPUs in one call; tallies intervals by kind. */
function detect(count: number, tally: IdleChildResult['intervals']): void {
  for (const intervals of detectIdleIntervalsMany(count === batch ? slots : slots.slice(0, count), policy, range)) {
    for (const interval of intervals) tally[interval.kind]++;
  }
}

/** The same, one call per series: each call checks the shared times for gaps again. */
function detectSingly(count: number): number {
  let found = 0;
  for (let k = 0; k < count; k++) found += detectIdleIntervals(slots[k]!, policy, range).length;
  return found;
}

/** The floor: a plain scan counting samples under the threshold, GPU by GPU like detection. */
function floor(count: number): number {
  let under = 0;
  for (let k = 0; k < count; k++) {
    const u = slots[k]!.util;
    for (let i = 0; i < n; i++) if (u[i]! < THRESHOLD) under++;
  }
  return under;
}

// Warm both paths up on one batch so the first timed run is not mostly the JIT's.
fill(0, batch);
detect(batch, { idle: 0, stalled: 0, unknown: 0 });
detectSingly(batch);
floor(batch);

const result: IdleChildResult = {
  samples: gpus * n,
  runs: [],
  intervals: { idle: 0, stalled: 0, unknown: 0 },
  underThreshold: 0,
  startRssMb,
  peakRssMb: 0,
  timesKiB: times.byteLength / 1024,
  batchMiB: (util.byteLength * 3) / 2 ** 20,
};
const ORDERS = [
  ['detect', 'single', 'floor'],
  ['floor', 'detect', 'single'],
  ['single', 'floor', 'detect'],
] as const;
for (let run = 0; run < runs; run++) {
  const tally = { idle: 0, stalled: 0, unknown: 0 };
  const ms = { detect: 0, single: 0, floor: 0 };
  const cpuMs = { detect: 0, single: 0, floor: 0 };
  let [generateMs, under, singly] = [0, 0, 0];
  for (let first = 0, b = 0; first < gpus; first += batch, b++) {
    const count = Math.min(batch, gpus - first);
    const generated = performance.now();
    fill(first, count);
    generateMs += performance.now() - generated;
    // Rotate which goes first, so none always finds the batch warmer in cache.
    for (const which of ORDERS[b % 3]!) {
      const [started, cpuStarted] = [performance.now(), cpuMsNow()];
      if (which === 'detect') detect(count, tally);
      else if (which === 'single') singly += detectSingly(count);
      else under += floor(count);
      ms[which] += performance.now() - started;
      cpuMs[which] += cpuMsNow() - cpuStarted;
    }
  }
  if (singly !== tally.idle + tally.stalled + tally.unknown)
    throw new Error(`one at a time found ${singly} intervals, in batches ${JSON.stringify(tally)}`);
  result.runs.push({
    detectMs: ms.detect,
    singleMs: ms.single,
    floorMs: ms.floor,
    generateMs,
    cpu: { detectMs: cpuMs.detect, singleMs: cpuMs.single, floorMs: cpuMs.floor },
  });
  result.intervals = tally;
  result.underThreshold = under;
}
result.peakRssMb = rssMb();
console.log(JSON.stringify(result));

function cpuMsNow(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function rssMb(): number {
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

/**
 * Deterministic samples for GPUs first..first+count: stretches of training (busy), idle, stalled
 * (memory held, nothing computed) and missing data, each GPU from its own xorshift stream.
 */
function fill(first: number, count: number): void {
  for (let k = 0; k < count; k++) {
    let s = (Math.imul(first + k + 1, 0x9e3779b1) | 1) >>> 0;
    const random = () => {
      s ^= s << 13;
      s ^= s >>> 17;
      s ^= s << 5;
      return (s >>> 0) / 4_294_967_296;
    };
    const base = k * n;
    for (let i = 0; i < n; ) {
      const r = random();
      const [kind, length] =
        r < 0.55
          ? [0, 60 + random() * 660]
          : r < 0.8
            ? [1, 20 + random() * 580]
            : r < 0.93
              ? [2, 10 + random() * 230]
              : [3, 1 + random() * 59];
      const held = kind === 0 ? 20_000 + random() * 50_000 : kind === 2 ? 30_000 : random() * 400;
      const end = Math.min(n, i + Math.floor(length));
      for (; i < end; i++) {
        const u = kind === 0 ? 40 + random() * 60 : kind === 1 ? random() * 3 : kind === 2 ? random() * 0.8 : Number.NaN;
        util[base + i] = u;
        power[base + i] = kind === 0 ? 200 + u * 4 : kind === 1 ? 45 + random() * 12 : kind === 2 ? 62 + random() * 10 : Number.NaN;
        memory[base + i] = kind === 3 ? Number.NaN : held;
      }
    }
  }
}
