import { compareRefs, type GpuRef, type GpuSeries, type MetricsRange } from '../domain/gpu-metrics.js';
import { seriesKey } from '../domain/physical-gpus.js';
import type { GpuInstance } from '../domain/gpu-inventory.js';
import type { HostPeak } from '../domain/host-peaks.js';
import type { GpuMetricsSource } from '../ports/gpu-metrics-source.js';
import { createStepGrid, type StepGrid } from '../domain/gpu-step-grid.js';

export interface RollingWindowOptions {
  /**
   * Seconds before the last end that are read again: samples a backend ingests late (the
   * CloudWatch agent's land a minute or two after their period) fill in on the next run.
   */
  overlapSeconds?: number;
}

interface Window {
  range: MetricsRange;
  series: Map<string, GpuSeries>;
}

/**
 * Another step's window ending this far behind a fetch's end is dropped: a reader that has not come
 * back for two hours (a review's month, a past period) does not hold its samples in memory until it does.
 */
const KEEP_UNUSED_SECONDS = 2 * 3600;

/**
 * A GPU metrics source that keeps the lookback window's series in memory and asks the source
 * behind it only for what is new: a run after one ending at `e` fetches [e - overlap, now), and
 * the result is the kept samples and the new ones, trimmed to the requested window. One window is
 * kept per step, because the GPU check's job reads at three (the idle check's minutes, the sweep
 * caps' five minutes, the hourly anomaly judgement's hours) and one kept window would be replaced
 * by each reader in turn, every read a whole one. The first fetch at a step (and the first after
 * a restart, the memory being gone) reads the whole window, and so does any request its kept
 * window cannot serve: a start before it, an end before its end (a clock set back), a start on
 * another grid, or nothing of it left in the new window. Fetches run one at a time, so the check
 * job and a Stop click's re-check never race.
 */
export class RollingWindowMetrics implements GpuMetricsSource {
  readonly id: string;
  readonly type: string;
  /** Step seconds → the window last read at that step. */
  private readonly kept = new Map<number, Window>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly overlapSeconds: number;

  constructor(
    private readonly source: GpuMetricsSource,
    options: RollingWindowOptions = {},
  ) {
    this.id = source.id;
    this.type = source.type;
    this.overlapSeconds = options.overlapSeconds ?? 0;
  }

  fetch(range: MetricsRange): Promise<GpuSeries[]> {
    const run = this.queue.then(() => this.fetchNow(range));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * A few machines' samples, not kept: one click's re-check reads one instance, and the fleet's
   * window stays as the check left it. Where the kept window serves the range, only the new samples
   * of these machines are asked for and joined to the kept series of their hosts; else the whole
   * range of these machines. A source that cannot be asked for some machines, or whose machines
   * sent nothing new (kept samples alone would hide that), answers as a fetch does.
   */
  async fetchInstances(range: MetricsRange, instances: readonly GpuInstance[]): Promise<GpuSeries[]> {
    if (!this.source.fetchInstances) return this.fetch(range);
    const kept = this.kept.get(range.stepSeconds);
    if (!kept || !this.reusable(kept.range, range)) return this.source.fetchInstances(range, instances);
    const deltaStart = Math.max(range.start, kept.range.end - this.alignedOverlap(range));
    const fresh =
      deltaStart < range.end
        ? await this.source.fetchInstances({ start: deltaStart, end: range.end, stepSeconds: range.stepSeconds }, instances)
        : [];
    if (fresh.length === 0) return this.fetch(range);
    // The kept series of the machines that answered: attribution keeps the clicked instance's among them.
    const hosts = new Set(fresh.map((s) => s.ref.host));
    const theirs = new Map([...kept.series].filter(([, s]) => hosts.has(s.ref.host)));
    return merge({ range: kept.range, series: theirs }, fresh, range);
  }

  /** Host peaks are read rarely (recommendations, the waste diagnosis) and are not kept. */
  async hostPeaks(range: MetricsRange, instanceIds: readonly string[]): Promise<HostPeak[]> {
    return (await this.source.hostPeaks?.(range, instanceIds)) ?? [];
  }

  private async fetchNow(range: MetricsRange): Promise<GpuSeries[]> {
    for (const [step, window] of this.kept)
      if (step !== range.stepSeconds && window.range.end < range.end - KEEP_UNUSED_SECONDS) this.kept.delete(step);
    const kept = this.kept.get(range.stepSeconds);
    const deltaStart =
      kept && this.reusable(kept.range, range) ? Math.max(range.start, kept.range.end - this.alignedOverlap(range)) : undefined;
    if (!kept || deltaStart === undefined) {
      const series = await this.source.fetch(range);
      this.kept.set(range.stepSeconds, { range, series: new Map(series.map((s) => [keyOf(s.ref), s])) });
      return series;
    }
    const fresh =
      deltaStart < range.end ? await this.source.fetch({ start: deltaStart, end: range.end, stepSeconds: range.stepSeconds }) : [];
    const merged = merge(kept, fresh, range);
    this.kept.set(range.stepSeconds, { range, series: new Map(merged.map((s) => [keyOf(s.ref), s])) });
    return merged;
  }

  private reusable(kept: MetricsRange, wanted: MetricsRange): boolean {
    return (
      wanted.start >= kept.start &&
      wanted.end >= kept.end &&
      wanted.start < kept.end &&
      (wanted.start - kept.start) % wanted.stepSeconds === 0
    );
  }

  /** The overlap on whole steps, so the fetched grid lines up with the kept one. */
  private alignedOverlap(range: MetricsRange): number {
    return Math.ceil(this.overlapSeconds / range.stepSeconds) * range.stepSeconds;
  }
}

/** Whole GPUs and MIG slices alike: each slice is its own series. */
function keyOf(ref: GpuRef): string {
  return seriesKey(ref);
}

/**
 * The kept samples inside the new window, overwritten by fresh ones where those have a value;
 * labels from the fresh series (a pod may have moved). A GPU with no sample left in the window
 * has gone and is dropped, as a full fetch would not return it either.
 */
function merge(kept: Window, fresh: readonly GpuSeries[], range: MetricsRange): GpuSeries[] {
  const grid = createStepGrid(range);
  const times = grid.times();
  const keptGrid = createStepGrid(kept.range);
  const freshByKey = new Map(fresh.map((s) => [keyOf(s.ref), s]));
  const keys = new Set([...kept.series.keys(), ...freshByKey.keys()]);
  const out: GpuSeries[] = [];
  for (const key of keys) {
    const old = kept.series.get(key);
    const now = freshByKey.get(key);
    const util = combine(grid, keptGrid, old?.util, now);
    const power = old?.power || now?.power ? combine(grid, keptGrid, old?.power ?? undefined, now, 'power') : null;
    const memUsedMiB = old?.memUsedMiB || now?.memUsedMiB ? combine(grid, keptGrid, old?.memUsedMiB ?? undefined, now, 'memUsedMiB') : null;
    if (!hasValue(util) && !(power && hasValue(power)) && !(memUsedMiB && hasValue(memUsedMiB))) continue;
    out.push({ ref: (now ?? old)!.ref, times, util, power, memUsedMiB });
  }
  return out.sort(compareRefs);
}

function combine(
  grid: StepGrid,
  keptGrid: StepGrid,
  old: Float32Array | undefined,
  fresh: GpuSeries | undefined,
  field: 'util' | 'power' | 'memUsedMiB' = 'util',
): Float32Array {
  const out = grid.empty();
  if (old) {
    // Kept slot i holds time keptGrid.start + i·step: shift it onto the new grid.
    const shift = Math.round((grid.start - keptGrid.start) / grid.step);
    for (let i = 0; i < out.length && i + shift < old.length; i++) out[i] = old[i + shift]!;
  }
  const values = fresh?.[field];
  if (fresh && values) {
    for (let i = 0; i < values.length; i++) {
      const v = values[i]!;
      if (Number.isNaN(v)) continue;
      const index = grid.indexOf(fresh.times[i]!);
      if (index >= 0) out[index] = v;
    }
  }
  return out;
}

function hasValue(values: Float32Array): boolean {
  for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i]!)) return true;
  return false;
}
