import { describe, expect, it } from 'vitest';
import { idleFindings, type IdleInstance } from '../../../src/checks/idle/idle-findings.js';
import type { IdleFinding } from '../../../src/domain/gpu-finding.js';
import { DEFAULT_IDLE_POLICY } from '../../../src/checks/idle/idle-policy.js';
import { DEFAULT_WORKING_HOURS, type TeamSchedule } from '../../../src/checks/idle/team-schedule.js';
import type { GpuInstance } from '../../../src/domain/gpu-inventory.js';
import type { GpuSeries, MetricsRange } from '../../../src/domain/gpu-metrics.js';
import { teamResolver } from '../../../src/domain/ownership.js';
import { UNMAPPED, UNTAGGED } from '../../../src/domain/spend.js';
import { demoConfig } from '../../../src/providers/demo/demo-config.js';
import { dayIntervals, demoFleet } from '../../../src/providers/demo/demo-fleet.js';
import type { Activity, DemoInstance } from '../../../src/providers/demo/demo-instance.js';
import { DemoGpuMetrics, STALLED_DEMO_INSTANCE, stallWindow } from '../../../src/providers/demo/demo-gpu-metrics.js';
import { demoInventory } from '../../../src/providers/demo/demo-inventory.js';

const SEED = 42;
const DAY = 86_400;
const at = (iso: string) => Date.parse(iso) / 1000;
const config = demoConfig();
const fleet = demoFleet(SEED);
const inventory = demoInventory(SEED, teamResolver(config.teams), { fleet });
const source = new DemoGpuMetrics({ seed: SEED, fleet });
const byName = (name: string): DemoInstance => {
  const found = fleet.find((i) => i.name === name);
  if (!found) throw new Error(`no ${name}`);
  return found;
};
const nameOf = new Map(fleet.map((i) => [i.instanceId, i.name]));

/** The demo week: Wednesday 4 March 2026 00:00Z to Thursday 12 March 00:00Z, one-minute samples. */
const WEEK: MetricsRange = { start: at('2026-03-04T00:00:00Z'), end: at('2026-03-12T00:00:00Z'), stepSeconds: 60 };
const week = await source.fetch(WEEK);

/** Ground truth: what the instance does at `t` (seconds), from its schedule; null while stopped. */
function activityAt(instance: DemoInstance, t: number): Activity | null {
  const day = new Date(Math.floor(t / DAY) * DAY * 1000).toISOString().slice(0, 10);
  const hour = (t % DAY) / 3600;
  return dayIntervals(instance, day).find((i) => i.start <= hour && hour < i.end)?.activity ?? null;
}
const stalledAt = (instance: DemoInstance, t: number) => {
  if (instance.name !== STALLED_DEMO_INSTANCE) return false;
  const [from, to] = stallWindow(SEED, instance, Math.floor(t / DAY));
  return activityAt(instance, t) === 'training' && from <= t && t < to;
};

const idleInstance = (i: GpuInstance): IdleInstance => ({
  id: i.instanceId,
  team: i.team === UNTAGGED || i.team === UNMAPPED ? null : i.team,
  hourlyPrice: i.hourlyPrice,
  gpuCount: i.gpuCount,
  protected: i.protected,
  workload: i.workload,
});
const instances = new Map(inventory.map((i) => [i.instanceId, idleInstance(i)]));
const schedules = new Map<string, TeamSchedule>(
  config.teams.map((t) => [t.id, { timezone: t.timezone, workingHours: DEFAULT_WORKING_HOURS }]),
);
const gpus = week.map((series) => ({ series, instance: instances.get(series.ref.host)! }));
const findingsAt = (iso: string): IdleFinding[] =>
  idleFindings({ gpus, policy: DEFAULT_IDLE_POLICY, now: new Date(iso), schedules, range: { ...WEEK, end: at(iso) } });
const named = (findings: IdleFinding[]) => findings.map((f) => `${f.kind} ${nameOf.get(f.instanceId)}`).sort();

/** Samples of a series in [from, to), as plain numbers. */
function window(series: GpuSeries, field: 'util' | 'power' | 'memUsedMiB', from: string, to: string): number[] {
  const values = series[field]!;
  const out: number[] = [];
  for (let i = 0; i < series.times.length; i++) if (series.times[i]! >= at(from) && series.times[i]! < at(to)) out.push(values[i]!);
  return out;
}
const seriesOf = (name: string, gpu = 0) => week.find((s) => s.ref.host === byName(name).instanceId && s.ref.gpu === String(gpu))!;
/** Bit-for-bit equal (NaN included). */
const same = (a: Float32Array, b: Float32Array) =>
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
const min = (xs: number[]) => Math.min(...xs);
const max = (xs: number[]) => Math.max(...xs);

describe('DemoGpuMetrics: shapes', () => {
  it('is a demo GPU metrics source', () => {
    expect(source.type).toBe('demo');
    expect(source.id).toBe('demo');
    expect(new DemoGpuMetrics({ seed: SEED, id: 'demo-2' }).id).toBe('demo-2');
  });

  it('gives one series per GPU, in host and GPU order, on one shared grid', () => {
    expect(week.length).toBe(fleet.reduce((n, i) => n + i.gpuCount, 0));
    for (const i of fleet) {
      const mine = week.filter((s) => s.ref.host === i.instanceId);
      expect(mine.map((s) => s.ref.gpu)).toEqual(Array.from({ length: i.gpuCount }, (_, g) => String(g)));
      expect(mine.every((s) => s.ref.model === i.gpuModel && /^GPU-[0-9a-f-]{36}$/.test(s.ref.uuid ?? ''))).toBe(true);
    }
    expect(new Set(week.map((s) => s.ref.uuid)).size).toBe(week.length);
    const times = week[0]!.times;
    expect(week.every((s) => s.times === times)).toBe(true);
    expect(times.length).toBe(8 * 24 * 60);
    expect(times[0]).toBe(WEEK.start);
    expect(times[1]! - times[0]!).toBe(60);
    expect(times.at(-1)).toBe(WEEK.end - 60);
    for (const s of week) {
      expect(s.util).toBeInstanceOf(Float32Array);
      expect([s.util.length, s.power?.length, s.memUsedMiB?.length]).toEqual([times.length, times.length, times.length]);
    }
  });

  it('has no data while an instance is stopped, and data exactly while it runs', () => {
    // Replicas run 10:00-24:00Z on weekdays; the pre-training node restarts 6 March at 16.16 h.
    const replica = seriesOf('serve-llm-replica-0', 3);
    expect(window(replica, 'util', '2026-03-05T00:00:00Z', '2026-03-05T10:00:00Z').every(Number.isNaN)).toBe(true);
    expect(window(replica, 'power', '2026-03-07T00:00:00Z', '2026-03-09T10:00:00Z').every(Number.isNaN)).toBe(true);
    expect(window(replica, 'memUsedMiB', '2026-03-05T10:00:00Z', '2026-03-06T00:00:00Z').some(Number.isNaN)).toBe(false);
    const a3 = seriesOf(STALLED_DEMO_INSTANCE, 7);
    expect(window(a3, 'util', '2026-03-06T00:00:00Z', '2026-03-06T16:09:00Z').every(Number.isNaN)).toBe(true);
    expect(window(a3, 'util', '2026-03-06T16:10:00Z', '2026-03-07T00:00:00Z').some(Number.isNaN)).toBe(false);
    // Every series, every sample: NaN exactly when the schedule says stopped.
    for (const s of week) {
      const instance = fleet.find((i) => i.instanceId === s.ref.host)!;
      for (let i = 0; i < s.times.length; i += 97)
        expect(Number.isNaN(s.util[i]!), `${instance.name} ${s.times[i]}`).toBe(activityAt(instance, s.times[i]!) === null);
    }
  });
});

describe('DemoGpuMetrics: values', () => {
  it('is deterministic for the seed, and a sample does not depend on the range fetched', async () => {
    const again = await new DemoGpuMetrics({ seed: SEED }).fetch(WEEK);
    expect(again.map((s) => s.ref)).toEqual(week.map((s) => s.ref));
    again.forEach((s, index) => {
      const w = week[index]!;
      expect(same(s.util, w.util) && same(s.power!, w.power!) && same(s.memUsedMiB!, w.memUsedMiB!), s.ref.host).toBe(true);
    });
    // One day on its own equals the same day inside the week.
    const day = await source.fetch({ start: at('2026-03-09T00:00:00Z'), end: at('2026-03-10T00:00:00Z'), stepSeconds: 60 });
    const offset = (at('2026-03-09T00:00:00Z') - WEEK.start) / 60;
    day.forEach((s, index) => {
      expect(s.ref).toEqual(week[index]!.ref);
      expect(same(s.util, week[index]!.util.subarray(offset, offset + 1440)), s.ref.host).toBe(true);
    });
    const other = await new DemoGpuMetrics({ seed: 43 }).fetch(WEEK);
    expect(other.some((s, index) => !same(s.util, week[index]!.util))).toBe(true);
  });

  it('draws busy training high, idle GPUs low, serving along the daily curve', () => {
    // The GCP pre-training node (8×H100) trains all of 8 March.
    expect(dayIntervals(byName(STALLED_DEMO_INSTANCE), '2026-03-08')).toEqual([{ start: 0, end: 24, activity: 'training' }]);
    const busy = seriesOf(STALLED_DEMO_INSTANCE, 2);
    const util = window(busy, 'util', '2026-03-08T00:00:00Z', '2026-03-09T00:00:00Z');
    expect(min(util)).toBeGreaterThanOrEqual(35);
    expect(max(util)).toBeLessThanOrEqual(98);
    expect(util.filter((u) => u >= 85).length / util.length).toBeGreaterThan(0.95);
    const watts = window(busy, 'power', '2026-03-08T00:00:00Z', '2026-03-09T00:00:00Z');
    expect(min(watts)).toBeGreaterThan(300);
    expect(max(watts)).toBeLessThan(660);
    expect(min(window(busy, 'memUsedMiB', '2026-03-08T00:00:00Z', '2026-03-09T00:00:00Z'))).toBeGreaterThan(60 * 1024);

    // The untagged debug box (4×A10G) is idle the whole week.
    const idle = seriesOf('tmp-debug-box', 1);
    expect(max(Array.from(idle.util))).toBeLessThanOrEqual(2);
    expect(max(Array.from(idle.memUsedMiB!))).toBeLessThan(1024);

    // Serving: quiet at night in New York, busy in its afternoon, never idle.
    const serve = seriesOf('serve-llm-primary');
    const night = window(serve, 'util', '2026-03-10T04:00:00Z', '2026-03-10T06:00:00Z');
    const afternoon = window(serve, 'util', '2026-03-10T16:00:00Z', '2026-03-10T18:00:00Z');
    expect(max(night)).toBeLessThan(35);
    expect(min(afternoon)).toBeGreaterThan(55);
    expect(min(Array.from(serve.util))).toBeGreaterThanOrEqual(15);
    expect(max(Array.from(serve.util))).toBeLessThanOrEqual(75);

    // A notebook session: spiky, between 0 and 60%.
    const notebook = seriesOf('alice-notebook');
    const session = window(notebook, 'util', '2026-03-10T08:00:00Z', '2026-03-10T14:00:00Z').filter((u) => !Number.isNaN(u));
    expect(session.length).toBeGreaterThan(60);
    expect(min(session)).toBeLessThan(3);
    expect(max(session)).toBeGreaterThan(30);
    expect(max(session)).toBeLessThanOrEqual(60);
  });

  it(`stalls ${STALLED_DEMO_INSTANCE}: memory held at ~70 GiB, utilisation ~0, for hours`, () => {
    const a3 = byName(STALLED_DEMO_INSTANCE);
    const [from, to] = stallWindow(SEED, a3, Math.floor(at('2026-03-11T00:00:00Z') / DAY));
    expect(new Date(from * 1000).toISOString()).toBe('2026-03-11T01:28:15.000Z');
    expect((to - from) / 3600).toBeGreaterThan(8);
    for (let g = 0; g < a3.gpuCount; g++) {
      const s = seriesOf(STALLED_DEMO_INSTANCE, g);
      const util = window(s, 'util', '2026-03-11T01:30:00Z', '2026-03-11T12:59:00Z');
      const memory = window(s, 'memUsedMiB', '2026-03-11T01:30:00Z', '2026-03-11T12:59:00Z');
      expect(max(util)).toBeLessThanOrEqual(1);
      expect(min(memory)).toBeGreaterThan(69.9 * 1024);
      expect(max(memory)).toBeLessThan(70.1 * 1024);
      expect(min(window(s, 'util', '2026-03-11T13:00:00Z', '2026-03-11T14:00:00Z'))).toBeGreaterThanOrEqual(35); // restarted
    }
  });

  it('fills a large range quickly: a month of five-minute samples, as the waste diagnosis reads it', async () => {
    const started = performance.now();
    const month = await source.fetch({ start: at('2026-02-01T00:00:00Z'), end: at('2026-03-01T00:00:00Z'), stepSeconds: 300 });
    expect(month[0]!.times.length).toBe(28 * 288);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('idle detection over the demo week', () => {
  it('Monday 06:00Z: notebooks left on over the weekend, the boxes and endpoints always idle; no serving, no training', () => {
    const findings = findingsAt('2026-03-09T06:00:00Z');
    expect(named(findings)).toEqual([
      'gpu.idle alice-notebook',
      'gpu.idle bob-notebook',
      'gpu.idle cv-demo-endpoint',
      'gpu.idle cv-label-t4',
      'gpu.idle growth-ranker-notebook',
      'gpu.idle research-legacy-v100',
      'gpu.idle serve-rerank',
      'gpu.idle tmp-debug-box',
    ]);
    expect(findings.find((f) => nameOf.get(f.instanceId) === 'bob-notebook')).toMatchObject({
      team: 'ml-research',
      workload: 'notebook',
      since: '2026-03-06T16:36:00.000Z',
      description: 'idle all weekend, since 17:36 on Friday',
    });
    expect(findings.find((f) => nameOf.get(f.instanceId) === 'growth-ranker-notebook')?.team).toBeNull();
  });

  it('Wednesday 12:00Z: the stalled pre-training job, all 8 GPUs, and the money it burns', () => {
    const findings = findingsAt('2026-03-11T12:00:00Z');
    expect(named(findings)).toEqual([
      'gpu.idle cv-demo-endpoint',
      'gpu.idle cv-label-t4',
      'gpu.idle research-legacy-v100',
      'gpu.idle serve-rerank',
      'gpu.idle tmp-debug-box',
      `gpu.stalled ${STALLED_DEMO_INSTANCE}`,
    ]);
    const stalled = findings.find((f) => f.kind === 'gpu.stalled')!;
    const a3 = byName(STALLED_DEMO_INSTANCE);
    expect(stalled).toMatchObject({
      instanceId: a3.instanceId,
      team: 'llm-training',
      workload: 'training',
      gpus: 8,
      stalledGpus: 8,
      since: '2026-03-11T01:29:00.000Z',
      protected: false,
    });
    expect(stalled.burned).toBeCloseTo(a3.hourlyPrice * (10 + 31 / 60), 1);
  });

  it('Wednesday 23:00Z: notebooks idle since their sessions ended', () => {
    expect(named(findingsAt('2026-03-11T23:00:00Z'))).toEqual([
      'gpu.idle alice-notebook',
      'gpu.idle cv-demo-endpoint',
      'gpu.idle cv-label-t4',
      'gpu.idle grace-notebook',
      'gpu.idle heidi-notebook',
      'gpu.idle research-legacy-v100',
      'gpu.idle research-shared-notebook',
      'gpu.idle serve-rerank',
      'gpu.idle tmp-debug-box',
    ]);
  });

  it('every three hours of the week: findings match the schedule — idle or stalled, never serving or training', () => {
    const checked = { idle: 0, stalled: 0, quiet: 0 };
    for (let t = at('2026-03-05T00:00:00Z'); t < WEEK.end; t += 3 * 3600) {
      const iso = new Date(t * 1000).toISOString();
      const findings = findingsAt(iso);
      const found = new Map(findings.map((f) => [f.instanceId, f]));
      for (const instance of fleet) {
        const finding = found.get(instance.instanceId);
        const label = `${instance.name} at ${iso}`;
        // An endpoint is found only when nothing calls it (its GPUs idle), never while it serves.
        if (instance.workload === 'inference' && activityAt(instance, t) === 'serving') expect(finding, label).toBeUndefined();
        if (stalledAt(instance, t) && stalledAt(instance, t - 3600)) {
          checked.stalled++;
          expect(finding?.kind, label).toBe('gpu.stalled');
        }
        // Data up to maxLag (5 min) old still counts as now: idle until 3 minutes ago is idle.
        else if (activityAt(instance, t) !== 'idle' && activityAt(instance, t - 6 * 60) !== 'idle') {
          checked.quiet++;
          expect(finding, label).toBeUndefined();
        } else if ([5, 30, 65].every((m) => activityAt(instance, t - m * 60) === 'idle')) {
          checked.idle++;
          expect(finding?.kind, label).toBe('gpu.idle');
        }
      }
    }
    expect(checked.stalled).toBeGreaterThanOrEqual(3);
    expect(checked.idle).toBeGreaterThan(100);
    expect(checked.quiet).toBeGreaterThan(1000);
  });
});
