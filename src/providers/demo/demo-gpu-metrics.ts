import { compareRefs, type GpuSeries, type MetricsRange } from '../../domain/gpu-metrics.js';
import { sampleCountOf } from '../../domain/gpu-step-grid.js';
import type { GpuMetricsSource } from '../../ports/gpu-metrics-source.js';
import { dayIntervals, demoFleet } from './demo-fleet.js';
import type { Activity, DemoInstance, WorkloadKind } from './demo-instance.js';
import type { GpuInstance } from '../../domain/gpu-inventory.js';
import type { HostPeak } from '../../domain/host-peaks.js';
import { randomFor, type Random } from './random.js';

/**
 * GPU metrics of the demo organisation, derived from the same run intervals as its spend
 * (demo-schedule.ts), so the idle check and the bill tell one story:
 *
 * - training (and sweeps): 85–98% utilisation with short dips, high power, most memory in use;
 * - serving: utilisation following US traffic over the UTC day (about 20–70%, quieter at weekends),
 *   the model resident in memory;
 * - interactive (notebook sessions): bursts of 15–60% between pauses of 0–3%, never an hour quiet;
 * - idle (paid for, unused): 0–2% at the model's idle power, memory nearly empty;
 * - stopped: no samples (NaN), as a scraper sees a machine that is off.
 *
 * One stalled job: the GCP pre-training node `llm-pretrain-a3-0` (8×H100, llm-training). In every
 * training cycle its run hangs at a seeded point 55–80% of the way through the cycle (a dead NCCL
 * peer) for 8–20 hours, until someone restarts it from its checkpoint: utilisation ~0, memory held
 * at ~70 GiB per GPU, power a little above idle. (Seed 42: 2026-03-11 01:28Z to 13:00Z.)
 *
 * Every value is a function of (seed, instance, GPU, sample time): the demo's 2026-03-04 14:07Z is
 * the same whichever range is fetched. Series are filled straight into typed arrays.
 */

/** The instance (by name) whose training runs hang. */
export const STALLED_DEMO_INSTANCE = 'llm-pretrain-a3-0';

export interface DemoGpuMetricsOptions {
  seed: number;
  /** Defaults to 'demo'. */
  id?: string;
  /** An already built fleet for the seed. */
  fleet?: readonly DemoInstance[];
}

interface GpuProfile {
  /** Watts drawn idle, and at full load. */
  idleW: number;
  maxW: number;
}

/** Rough per-GPU power envelopes (idle draw, board power) by catalog model. */
const PROFILES: Readonly<Record<string, GpuProfile>> = {
  H200: { idleW: 72, maxW: 700 },
  H100: { idleW: 68, maxW: 700 },
  A100: { idleW: 58, maxW: 400 },
  L40S: { idleW: 34, maxW: 350 },
  A10G: { idleW: 22, maxW: 300 },
  V100: { idleW: 40, maxW: 300 },
  L4: { idleW: 16, maxW: 72 },
  T4: { idleW: 10, maxW: 70 },
};
const DEFAULT_PROFILE: GpuProfile = { idleW: 50, maxW: 400 };

const DAY_SECONDS = 86_400;
const HOUR = 3_600;
const MIB_PER_GIB = 1024;
const STALL_MEMORY_MIB = 70 * MIB_PER_GIB;

export class DemoGpuMetrics implements GpuMetricsSource {
  readonly type = 'demo';
  readonly id: string;
  private readonly seed: number;
  private readonly fleet: readonly DemoInstance[];

  constructor(options: DemoGpuMetricsOptions) {
    this.id = options.id ?? 'demo';
    this.seed = options.seed;
    this.fleet = options.fleet ?? demoFleet(options.seed);
  }

  async fetch(range: MetricsRange): Promise<GpuSeries[]> {
    return demoGpuSeries(this.seed, this.fleet, range);
  }

  /** The named machines' series only (each machine's samples depend on its id alone, not on the others). */
  async fetchInstances(range: MetricsRange, instances: readonly GpuInstance[]): Promise<GpuSeries[]> {
    const ids = new Set(instances.map((i) => i.instanceId));
    return demoGpuSeries(
      this.seed,
      this.fleet.filter((i) => ids.has(i.instanceId)),
      range,
    );
  }

  /**
   * What node_exporter would say of each demo host: a share of its vCPUs and memory typical of the
   * work (training feeds its GPUs from many loader processes; a notebook's host mostly waits), the
   * same whatever the range.
   */
  async hostPeaks(): Promise<HostPeak[]> {
    return this.fleet.map((instance) => {
      const r = randomFor(this.seed, instance.instanceId, 'host');
      const { cpu, memory } = HOST_USE[instance.workload];
      return { host: instance.instanceId, cpu: { share: r.between(...cpu) }, memory: { share: r.between(...memory) } };
    });
  }
}

/** Shares of the host's vCPUs and memory in use at the 95th percentile, by workload. */
const HOST_USE: Record<WorkloadKind, { cpu: [number, number]; memory: [number, number] }> = {
  training: { cpu: [0.35, 0.6], memory: [0.4, 0.65] },
  sweep: { cpu: [0.3, 0.5], memory: [0.3, 0.5] },
  inference: { cpu: [0.1, 0.3], memory: [0.2, 0.4] },
  notebook: { cpu: [0.05, 0.2], memory: [0.15, 0.35] },
};

/** The fleet's series over `range`: one per GPU, all on one shared times grid (start + i × step). */
export function demoGpuSeries(seed: number, fleet: readonly DemoInstance[], range: MetricsRange): GpuSeries[] {
  const { start, stepSeconds: step } = range;
  const n = sampleCountOf(range);
  const times = new Float64Array(n);
  for (let i = 0; i < n; i++) times[i] = start + i * step;

  const out: GpuSeries[] = [];
  for (const instance of fleet) {
    const profile = PROFILES[instance.gpuModel] ?? DEFAULT_PROFILE;
    const gpuMiB = ((instance.gpuMemoryGiB ?? 16 * instance.gpuCount) / instance.gpuCount) * MIB_PER_GIB;
    const stalls = instance.name === STALLED_DEMO_INSTANCE && instance.pattern.kind === 'runs';
    for (let g = 0; g < instance.gpuCount; g++) {
      const util = new Float32Array(n).fill(Number.NaN);
      const power = new Float32Array(n).fill(Number.NaN);
      const mem = new Float32Array(n).fill(Number.NaN);
      const fill: Fill = { times, util, power, mem, start, step, n, profile, gpuMiB, memoryShare: instance.memoryShare };
      if (n > 0) {
        const firstDay = Math.floor(start / DAY_SECONDS);
        const lastDay = Math.floor(times[n - 1]! / DAY_SECONDS);
        for (let d = firstDay; d <= lastDay; d++) {
          const day = new Date(d * DAY_SECONDS * 1000).toISOString().slice(0, 10);
          const r = randomFor(seed, instance.instanceId, day, g);
          const noise = r.int(0, 0x7fffffff);
          const weekend = [0, 6].includes(new Date(d * DAY_SECONDS * 1000).getUTCDay());
          const [s0, s1] = stalls ? stallWindow(seed, instance, d) : NO_STALL;
          for (const interval of dayIntervals(instance, day)) {
            const a = d * DAY_SECONDS + interval.start * HOUR;
            const b = d * DAY_SECONDS + interval.end * HOUR;
            if (interval.activity === 'training' && s0 < b && s1 > a) {
              if (a < s0) fillActivity(fill, 'training', a, s0, r, noise, weekend);
              fillStall(fill, Math.max(a, s0), Math.min(b, s1), noise);
              if (s1 < b) fillActivity(fill, 'training', s1, b, r, noise, weekend);
            } else {
              fillActivity(fill, interval.activity, a, b, r, noise, weekend);
            }
          }
        }
      }
      out.push({
        ref: { host: instance.instanceId, gpu: String(g), uuid: uuidOf(seed, instance.instanceId, g), model: instance.gpuModel },
        times,
        util,
        power,
        memUsedMiB: mem,
      });
    }
  }
  return out.sort(compareRefs);
}

const NO_STALL: readonly [number, number] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];

/**
 * When (seconds since the epoch, [from, to)) the stalled instance's run hangs in the training cycle
 * holding day `d`. Cycles start at UTC midnight, so a day lies in exactly one.
 */
export function stallWindow(seed: number, instance: DemoInstance, d: number): readonly [number, number] {
  const p = instance.pattern;
  if (p.kind !== 'runs') return NO_STALL;
  const k = Math.floor((d + p.phaseDays) / p.cycleDays);
  const cycleStartDay = k * p.cycleDays - p.phaseDays;
  const r = randomFor(seed, 'stall', instance.instanceId, k);
  const from = Math.round((cycleStartDay + r.between(0.55, 0.8) * p.cycleDays) * DAY_SECONDS);
  return [from, from + Math.round(r.between(8, 20) * HOUR)];
}

interface Fill {
  times: Float64Array;
  util: Float32Array;
  power: Float32Array;
  mem: Float32Array;
  start: number;
  step: number;
  n: number;
  profile: GpuProfile;
  gpuMiB: number;
  /** The instance's own share of memory held in sessions; null: the activity's usual. */
  memoryShare: readonly [number, number] | null;
}

/** Sample indices whose times lie in [a, b). */
function indices(f: Fill, a: number, b: number): [number, number] {
  const lo = Math.max(0, Math.ceil((a - f.start) / f.step));
  const hi = Math.min(f.n, Math.ceil((b - f.start) / f.step));
  return [lo, hi];
}

function fillActivity(f: Fill, activity: Activity, a: number, b: number, r: Random, noise: number, weekend: boolean): void {
  switch (activity) {
    case 'training':
      return fillTraining(f, a, b, r, noise);
    case 'serving':
      return fillServing(f, a, b, r, noise, weekend);
    case 'interactive':
      return fillInteractive(f, a, b, r, noise);
    case 'idle':
      return fillIdle(f, a, b, noise);
  }
}

function fillTraining(f: Fill, a: number, b: number, r: Random, noise: number): void {
  const { times, util, power, mem, profile, gpuMiB } = f;
  const level = r.between(89, 94);
  const memory = gpuMiB * r.between(0.8, 0.92);
  const span = profile.maxW - profile.idleW;
  const [lo, hi] = indices(f, a, b);
  for (let i = lo; i < hi; i++) {
    const t = times[i]!;
    const h = hash01(noise, t);
    // Mostly 85–98%; about one minute in fifty a dip (data loader, checkpoint write) to 35–60%.
    const u = hash01(noise ^ 0x5bd1e995, t) < 0.02 ? 35 + 25 * h : Math.min(98, Math.max(85, level + (h - 0.5) * 9));
    util[i] = u;
    power[i] = profile.idleW + span * (0.3 + 0.6 * (u / 100)) + (h - 0.5) * span * 0.04;
    mem[i] = memory + (h - 0.5) * 256;
  }
}

function fillServing(f: Fill, a: number, b: number, r: Random, noise: number, weekend: boolean): void {
  const { times, util, power, mem, profile, gpuMiB } = f;
  const memory = gpuMiB * r.between(0.6, 0.75);
  const span = profile.maxW - profile.idleW;
  const [lo, hi] = indices(f, a, b);
  for (let i = lo; i < hi; i++) {
    const t = times[i]!;
    const h = hash01(noise, t);
    // US traffic: quietest around 05:00Z (midnight in New York), busiest around 17:00Z.
    const hour = (t % DAY_SECONDS) / HOUR;
    const curve = (0.5 - 0.5 * Math.cos((2 * Math.PI * (hour - 5)) / 24)) * (weekend ? 0.6 : 1);
    const u = Math.min(100, Math.max(15, 20 + 50 * curve + (h - 0.5) * 10));
    util[i] = u;
    power[i] = profile.idleW + span * (0.15 + 0.7 * (u / 100)) + (h - 0.5) * span * 0.04;
    mem[i] = memory + (h - 0.5) * 512;
  }
}

/** A notebook session: bursts of work (3–20 min at 15–60%) between pauses (2–25 min at 0–3%), memory held throughout. */
function fillInteractive(f: Fill, a: number, b: number, r: Random, noise: number): void {
  const { times, util, power, mem, profile, gpuMiB } = f;
  const [low, high] = f.memoryShare ?? [0.3, 0.6];
  const memory = gpuMiB * r.between(low, high);
  const span = profile.maxW - profile.idleW;
  let from = a;
  // Opened to run something: a session starts with a burst, so a notebook left on ends its idle stretch.
  let busy = true;
  while (from < b) {
    const to = Math.min(b, from + 60 * (busy ? r.between(3, 20) : r.between(2, 25)));
    const level = busy ? r.between(15, 55) : 0;
    const [lo, hi] = indices(f, from, to);
    for (let i = lo; i < hi; i++) {
      const h = hash01(noise, times[i]!);
      const u = busy ? level + h * 5 : h * 3;
      util[i] = u;
      power[i] = profile.idleW * 1.1 + span * 0.8 * (u / 100) + (h - 0.5) * 4;
      mem[i] = memory;
    }
    from = to;
    busy = !busy;
  }
}

function fillIdle(f: Fill, a: number, b: number, noise: number): void {
  const { times, util, power, mem, profile } = f;
  const [lo, hi] = indices(f, a, b);
  for (let i = lo; i < hi; i++) {
    const h = hash01(noise, times[i]!);
    util[i] = h * 2;
    power[i] = profile.idleW * (0.92 + 0.16 * h);
    mem[i] = 1 + h * 6;
  }
}

/** A hung job: no work, the model and optimizer state still in memory, power a little above idle. */
function fillStall(f: Fill, a: number, b: number, noise: number): void {
  const { times, util, power, mem, profile, gpuMiB } = f;
  const memory = Math.min(STALL_MEMORY_MIB, gpuMiB * 0.9);
  const [lo, hi] = indices(f, a, b);
  for (let i = lo; i < hi; i++) {
    const h = hash01(noise, times[i]!);
    util[i] = h * 0.6;
    power[i] = profile.idleW * (1.3 + 0.15 * h);
    mem[i] = memory + (h - 0.5) * 64;
  }
}

/** A uniform [0, 1) from a 32-bit key and a sample time: position-independent noise, no state. */
function hash01(key: number, t: number): number {
  let x = (key ^ Math.imul(Math.floor(t) | 0, 0x9e3779b1)) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return ((x ^ (x >>> 16)) >>> 0) / 4294967296;
}

function uuidOf(seed: number, instanceId: string, gpu: number): string {
  const hex = randomFor(seed, 'gpu-uuid', instanceId, gpu).hex(32);
  return `GPU-${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
