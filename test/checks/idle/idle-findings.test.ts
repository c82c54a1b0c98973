import { describe, expect, it } from 'vitest';
import { idleFindings, toCents, type IdleInstance } from '../../../src/checks/idle/idle-findings.js';
import { idlePolicy, type IdlePolicy } from '../../../src/checks/idle/idle-policy.js';
import { DEFAULT_WORKING_HOURS, type TeamSchedule } from '../../../src/checks/idle/team-schedule.js';
import type { GpuSeries } from '../../../src/domain/gpu-metrics.js';
import { repeat, seq, series } from './series.js';

// Series start Thursday 19 November 2026, 08:00 UTC; `now` is 25 hours later, Friday 09:00 UTC.
const START = Date.UTC(2026, 10, 19, 8) / 1000;
const NOW = new Date('2026-11-20T09:00:00Z');
const SAMPLES = 25 * 60;
const range = { start: START, end: NOW.getTime() / 1000, stepSeconds: 60 };

const instance = (id: string, more: Partial<IdleInstance> = {}): IdleInstance => ({
  id,
  team: 'ml-research',
  hourlyPrice: 32.7726,
  gpuCount: 1,
  protected: false,
  ...more,
});
/** Busy until `idleFrom` minutes after START, then idle (memory held: stalled) to the end. */
const quietFrom = (idleFrom: number, memoryHeld = false, gpu = '0'): GpuSeries =>
  series(seq(repeat(85, idleFrom), repeat(0, SAMPLES - idleFrom)), {
    start: START,
    memory: repeat(memoryHeld ? 30_000 : 300, SAMPLES),
    gpu,
  });
const busy = (gpu = '0'): GpuSeries => series(repeat(85, SAMPLES), { start: START, gpu });
const schedules = new Map<string, TeamSchedule>([['ml-research', { timezone: 'Europe/Berlin', workingHours: DEFAULT_WORKING_HOURS }]]);
const find = (gpus: { series: GpuSeries; instance: IdleInstance }[], policy: IdlePolicy = idlePolicy(), now = NOW) =>
  idleFindings({ gpus, policy, now, schedules, range });

describe('idleFindings', () => {
  it('reports an instance idle up to now, with cost burned and cost per day to the cent', () => {
    // Idle from 19:40 UTC (20:40 in Berlin) to 09:00 UTC: 13 h 20 min at 32.7726 an hour.
    const [finding, ...rest] = find([{ series: quietFrom(700), instance: instance('i-1', { workload: 'training' }) }]);
    expect(rest).toEqual([]);
    expect(finding).toEqual({
      id: 'gpu.idle:i-1:2026-11-19T19:40:00.000Z',
      kind: 'gpu.idle',
      team: 'ml-research',
      instanceId: 'i-1',
      workload: 'training',
      protected: false,
      since: '2026-11-19T19:40:00.000Z',
      idleMinutes: 800,
      burned: 436.97, // 32.7726 × 13.3333 = 436.968
      perDay: 786.54, // 32.7726 × 24 = 786.5424
      hourlyPrice: 32.7726,
      gpus: 1,
      stalledGpus: 0,
      missingMinutes: 0,
      description: 'idle since 20:40 yesterday',
      // Over the idle period: 0 % busy, 300 MiB held (0.29 GiB), no power samples in this series.
      evidence: { utilMeanPct: 0, utilMaxPct: 0, memUsedGiB: 0.3, powerWattsPerGpu: null },
    });
  });

  it('says "at least" when the instance was idle through the whole window of metrics read', () => {
    // Idle from the first sample: it started earlier, so 25 h and 25 × 32.7726 are lower bounds.
    const [finding] = find([{ series: quietFrom(0), instance: instance('i-1') }]);
    expect(finding!.burned).toBe(toCents(25 * 32.7726));
    expect(finding!.description).toContain('(at least: idle through all 25 h of metrics read, so the amount burned is at least this too)');
    // Idle from a moment inside the window: a start known, no "at least".
    expect(find([{ series: quietFrom(700), instance: instance('i-1') }])[0]!.description).not.toContain('at least');
  });

  it("says where the price comes from when it is not the catalog price of the instance's own region", () => {
    const note = 'priced as in us-east-1: the price catalog has no p5.48xlarge price for us-east-2';
    const [finding] = find([{ series: quietFrom(700), instance: instance('i-1', { priceNote: note }) }]);
    expect(finding!.description).toBe(`idle since 20:40 yesterday (${note})`);
  });

  it('counts to now, past the last sample when it is merely late, and keeps the id', () => {
    const late = new Date('2026-11-20T09:03:30Z');
    const [finding] = idleFindings({
      gpus: [{ series: quietFrom(700), instance: instance('i-1') }],
      policy: idlePolicy(),
      now: late,
      schedules,
      range: { ...range, end: late.getTime() / 1000 },
    });
    expect(finding).toMatchObject({ id: 'gpu.idle:i-1:2026-11-19T19:40:00.000Z', idleMinutes: 803, burned: 438.88 }); // 13.39167 h
  });

  it('rounds money half up to the cent, without binary noise', () => {
    expect(toCents(1.005)).toBe(1.01);
    expect(toCents(3.06 * 1.5)).toBe(4.59);
    expect(toCents(0.125)).toBe(0.13);
    expect(toCents(98.32 * 24)).toBe(2359.68);
  });

  it('calls an instance idle only when all its GPUs are, from when the last one fell quiet', () => {
    const box = instance('p4d', { gpuCount: 4, hourlyPrice: 21.96 });
    const gpus = [quietFrom(600, false, '0'), quietFrom(600, false, '1'), quietFrom(600, false, '2'), quietFrom(660, false, '3')].map(
      (s) => ({ series: s, instance: box }),
    );
    expect(find(gpus)).toMatchObject([{ kind: 'gpu.idle', since: '2026-11-19T19:00:00.000Z', gpus: 4, idleMinutes: 840, burned: 307.44 }]);
    expect(find([...gpus.slice(0, 3), { series: busy('3'), instance: box }])).toEqual([]);
  });

  it('calls it stalled when any GPU holds memory without working and none is busy', () => {
    const box = instance('p4d', { gpuCount: 4 });
    const gpus = [quietFrom(600, true, '0'), quietFrom(600, false, '1'), quietFrom(600, false, '2'), quietFrom(600, false, '3')].map(
      (s) => ({ series: s, instance: box }),
    );
    expect(find(gpus)).toMatchObject([{ kind: 'gpu.stalled', id: 'gpu.stalled:p4d:2026-11-19T18:00:00.000Z', stalledGpus: 1, gpus: 4 }]);
    expect(find([gpus[0]!, gpus[1]!, gpus[2]!, { series: busy('3'), instance: box }])).toEqual([]);
  });

  it('treats GPUs without a series as missing data, by policy', () => {
    const box = instance('p4d', { gpuCount: 2 });
    expect(find([{ series: quietFrom(600), instance: box }])).toEqual([]);
    expect(find([{ series: quietFrom(600), instance: box }], idlePolicy({ missing: 'idle' }))).toMatchObject([
      { since: '2026-11-19T18:00:00.000Z', gpus: 2, missingMinutes: 900 },
    ]);
  });

  it('makes no finding for a GPU whose data ends in a gap, unless missing counts as idle', () => {
    const stopped = series(seq(repeat(85, 600), repeat(0, 300)), { start: START }); // no data for the last 10 hours
    const gpus = [{ series: stopped, instance: instance('i-2') }];
    expect(find(gpus)).toEqual([]);
    expect(find(gpus, idlePolicy({ missing: 'busy' }))).toEqual([]);
    expect(find(gpus, idlePolicy({ missing: 'idle' }))).toMatchObject([
      { since: '2026-11-19T18:00:00.000Z', missingMinutes: 600, idleMinutes: 900 },
    ]);
  });

  it('lists the most money burned first, reads unowned instances in UTC and passes protection on', () => {
    const findings = find([
      { series: quietFrom(1200), instance: instance('cheap', { hourlyPrice: 1.2 }) },
      { series: quietFrom(200), instance: instance('serve', { team: null, hourlyPrice: 4.8, protected: true }) },
    ]);
    expect(findings.map((f) => [f.instanceId, f.burned, f.protected, f.description])).toEqual([
      ['serve', 104, true, 'idle since 11:20 yesterday'], // 21 h 40 min × 4.80
      ['cheap', 6, false, 'idle since 05:00'], // 5 h × 1.20; 04:00 UTC is 05:00 in Berlin
    ]);
  });

  it('derives the range from the series and now when none is given', () => {
    const findings = idleFindings({
      gpus: [{ series: quietFrom(700), instance: instance('i-1') }],
      policy: idlePolicy(),
      now: NOW,
      schedules: new Map(),
    });
    expect(findings).toMatchObject([{ since: '2026-11-19T19:40:00.000Z', description: 'idle since 19:40 yesterday' }]);
  });
});
