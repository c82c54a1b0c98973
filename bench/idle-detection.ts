// GPU idle detection benchmark: detectIdleIntervals over `gpus` GPUs × `days` days of one-minute
// samples, against the floor: a plain typed-array scan that only counts samples under the
// threshold. Detection runs two ways (a batch per call, as idleFindings does; one series per call)
// side by side with the floor in one child process (bench/idle-detection-child.ts), batch by batch,
// rotating which goes first; that process's peak RSS is reported. Target: ≤ 2× the floor. Ratios
// are given in wall time and in the process's CPU time: on a machine loaded by other work, wall
// time also counts the stretches the benchmark waited for a core, and those fall unevenly.

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { IdleChildResult } from './idle-detection-child.js';
import { median } from './stats.js';

const run = promisify(execFile);

export interface IdleDetectionBench {
  gpus: number;
  days: number;
  samples: number;
  runs: number;
  batch: number;
  /** detectIdleIntervalsMany per batch: the path idleFindings takes. */
  detect: { ms: number; samplesPerSec: number };
  /** detectIdleIntervals one series per call (gaps looked for in every call). */
  single: { ms: number; samplesPerSec: number };
  floor: { ms: number; samplesPerSec: number };
  /** detect ms / floor ms, and single ms / floor ms (medians). */
  ratio: number;
  singleRatio: number;
  /** The same ratios in CPU time. */
  cpuRatio: number;
  cpuSingleRatio: number;
  /** Generation of the samples per run (not timed in either figure). */
  generateMs: number;
  intervals: IdleChildResult['intervals'];
  underThreshold: number;
  startRssMb: number;
  peakRssMb: number;
  /** The shared times array, and the util + power + memory buffers of one batch. */
  layout: { timesKiB: number; batchMiB: number; allAtOnceMiB: number };
  perRun: IdleChildResult['runs'];
}

export async function benchIdleDetection(opts: { gpus: number; days: number; runs: number; batch?: number }): Promise<IdleDetectionBench> {
  const batch = opts.batch ?? 256;
  const child = fileURLToPath(new URL('./idle-detection-child.js', import.meta.url));
  const { stdout } = await run(process.execPath, [child, String(opts.gpus), String(opts.days), String(opts.runs), String(batch)], {
    maxBuffer: 1024 * 1024,
  });
  const result = JSON.parse(stdout.trim().split('\n').pop() ?? '') as IdleChildResult;
  const detectMs = median(result.runs.map((r) => r.detectMs));
  const singleMs = median(result.runs.map((r) => r.singleMs));
  const floorMs = median(result.runs.map((r) => r.floorMs));
  const cpu = (which: 'detectMs' | 'singleMs' | 'floorMs') => median(result.runs.map((r) => r.cpu[which]));
  const perSec = (ms: number) => Math.round(result.samples / (ms / 1000));
  return {
    gpus: opts.gpus,
    days: opts.days,
    samples: result.samples,
    runs: opts.runs,
    batch,
    detect: { ms: round1(detectMs), samplesPerSec: perSec(detectMs) },
    single: { ms: round1(singleMs), samplesPerSec: perSec(singleMs) },
    floor: { ms: round1(floorMs), samplesPerSec: perSec(floorMs) },
    ratio: Math.round((detectMs / floorMs) * 100) / 100,
    singleRatio: Math.round((singleMs / floorMs) * 100) / 100,
    cpuRatio: Math.round((cpu('detectMs') / cpu('floorMs')) * 100) / 100,
    cpuSingleRatio: Math.round((cpu('singleMs') / cpu('floorMs')) * 100) / 100,
    generateMs: Math.round(median(result.runs.map((r) => r.generateMs))),
    intervals: result.intervals,
    underThreshold: result.underThreshold,
    startRssMb: result.startRssMb,
    peakRssMb: result.peakRssMb,
    layout: {
      timesKiB: round1(result.timesKiB),
      batchMiB: round1(result.batchMiB),
      allAtOnceMiB: Math.round((result.samples * 12) / 2 ** 20),
    },
    perRun: result.runs.map((r) => ({
      detectMs: round1(r.detectMs),
      singleMs: round1(r.singleMs),
      floorMs: round1(r.floorMs),
      generateMs: Math.round(r.generateMs),
      cpu: { detectMs: round1(r.cpu.detectMs), singleMs: round1(r.cpu.singleMs), floorMs: round1(r.cpu.floorMs) },
    })),
  };
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
