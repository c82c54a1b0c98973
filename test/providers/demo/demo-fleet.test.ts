import { describe, expect, it } from 'vitest';
import { priceOf } from '../../../src/catalog/price-catalog.js';
import { dayIntervals, demoFleet, hoursOn } from '../../../src/providers/demo/demo-fleet.js';
import type { DemoInstance } from '../../../src/providers/demo/demo-instance.js';
import { createRandom, seedOf } from '../../../src/providers/demo/random.js';

const fleet = demoFleet(42);
const byName = (name: string): DemoInstance => {
  const instance = fleet.find((i) => i.name === name);
  if (!instance) throw new Error(`no ${name}`);
  return instance;
};
/** The UTC days from `start`, `count` of them. */
const daysFrom = (start: string, count: number) =>
  Array.from({ length: count }, (_, i) => new Date(Date.parse(`${start}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10));
const isWeekend = (day: string) => [0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay());

describe('random', () => {
  it('repeats itself for a seed and differs between seeds', () => {
    const a = createRandom(7);
    const b = createRandom(7);
    const c = createRandom(8);
    const take = (r: typeof a) => Array.from({ length: 5 }, () => r.next());
    const first = take(a);
    expect(take(b)).toEqual(first);
    expect(take(c)).not.toEqual(first);
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(seedOf(42, 'x', '2026-01-01')).toBe(seedOf(42, 'x', '2026-01-01'));
    expect(seedOf(42, 'x', '2026-01-01')).not.toBe(seedOf(42, 'x', '2026-01-02'));
  });
});

describe('demoFleet', () => {
  it('is a realistic fleet of 25-45 GPU instances, the same for the same seed', () => {
    expect(fleet.length).toBeGreaterThanOrEqual(25);
    expect(fleet.length).toBeLessThanOrEqual(45);
    expect(demoFleet(42)).toEqual(fleet);
    expect(demoFleet(43).map((i) => i.instanceId)).not.toEqual(fleet.map((i) => i.instanceId));
    expect(new Set(fleet.map((i) => i.instanceId)).size).toBe(fleet.length);
    for (const i of fleet.filter((f) => f.provider === 'aws')) expect(i.instanceId).toMatch(/^i-0[0-9a-f]{16}$/);
    for (const i of fleet.filter((f) => f.provider === 'gcp')) expect(i.instanceId).toMatch(/^[1-9]\d{18}$/);
    expect(fleet.filter((i) => i.provider === 'gcp').length).toBeGreaterThanOrEqual(3);
    expect(new Set(fleet.map((i) => i.workload))).toEqual(new Set(['training', 'inference', 'notebook', 'sweep']));
  });

  it('prices every instance from the catalog: on-demand, spot, or the Savings Plan rate', () => {
    for (const i of fleet) {
      const price = priceOf(i.provider, i.instanceType, i.region)!;
      expect(price, i.name).toBeDefined();
      expect(i.hourlyPrice).toBe(i.lifecycle === 'spot' ? price.spotHourly : price.onDemandHourly);
      expect(i.gpuCount).toBe(price.gpuCount);
      expect(i.pricing).toBe(i.lifecycle === 'spot' ? 'Dynamic' : i.pricing === 'Committed' ? 'Committed' : 'Standard');
      if (i.pricing === 'Committed') expect(i.effectiveHourly).toBeLessThan(i.hourlyPrice);
      else expect(i.effectiveHourly).toBe(i.hourlyPrice);
    }
    expect(fleet.some((i) => i.pricing === 'Committed')).toBe(true);
    expect(byName('llm-pretrain-node-0')).toMatchObject({ instanceType: 'p5.48xlarge', gpuModel: 'H100', gpuCount: 8, gpuMemoryGiB: 640 });
  });

  it('tags teams with the demo config values, plus one untagged box and one unknown team', () => {
    const values = new Set(fleet.map((i) => i.teamTag));
    for (const v of ['ml-research', 'research', 'llm-training', 'llm', 'inference', 'serving', 'vision', 'cv', 'growth-ml', null])
      expect(values).toContain(v);
    expect(byName('tmp-debug-box')).toMatchObject({ teamTag: null, owner: null });
    expect(Object.keys(byName('tmp-debug-box').tags)).not.toContain('team');
    expect(byName('growth-ranker-notebook').tags.team).toBe('growth-ml');
    expect(fleet.filter((i) => i.owner !== null).every((i) => /^U0DEMO[A-Z]+$/.test(i.owner!))).toBe(true);
  });

  it('protects inference endpoints and tags checkpointing training jobs', () => {
    expect(fleet.filter((i) => i.protected).every((i) => i.workload === 'inference')).toBe(true);
    expect(fleet.filter((i) => i.workload === 'inference').every((i) => i.protected)).toBe(true);
    const checkpointing = fleet.filter((i) => i.tags.checkpoint === 'true');
    expect(checkpointing.length).toBeGreaterThan(3);
    expect(checkpointing.every((i) => i.workload === 'training' && /^\d+[mh]$/.test(i.tags['checkpoint-interval'] ?? ''))).toBe(true);
    expect(checkpointing.some((i) => i.lifecycle === 'on-demand')).toBe(true); // candidates for spot
  });
});

describe('running patterns', () => {
  const days = daysFrom('2026-02-02', 28); // four weeks from a Monday

  it('gives ordered, non-overlapping intervals inside the day', () => {
    for (const i of fleet) {
      for (const day of days) {
        const intervals = dayIntervals(i, day);
        let last = 0;
        for (const iv of intervals) {
          expect(iv.start).toBeGreaterThanOrEqual(last);
          expect(iv.end).toBeGreaterThan(iv.start);
          expect(iv.end).toBeLessThanOrEqual(24);
          last = iv.end;
        }
      }
    }
  });

  it('runs inference endpoints around the clock and replicas on weekdays only', () => {
    for (const day of days) expect(dayIntervals(byName('serve-llm-primary'), day)).toEqual([{ start: 0, end: 24, activity: 'serving' }]);
    const replica = byName('serve-llm-replica-0');
    for (const day of days) expect(hoursOn(replica, day)).toBe(isWeekend(day) ? 0 : 14);
  });

  it('runs training 24/7 with gaps between runs, sometimes idling after a run', () => {
    const node = byName('llm-pretrain-node-0');
    const hours = days.map((d) => hoursOn(node, d));
    expect(hours.filter((h) => h === 24).length).toBeGreaterThan(18);
    expect(hours.some((h) => h < 24)).toBe(true);
    const activities = new Set(
      fleet.filter((i) => i.workload === 'training').flatMap((i) => days.flatMap((d) => dayIntervals(i, d).map((iv) => iv.activity))),
    );
    expect(activities).toEqual(new Set(['training', 'idle']));
  });

  it('runs notebooks on weekdays, some left on idle overnight or over the weekend', () => {
    const notebooks = fleet.filter((i) => i.workload === 'notebook' && i.pattern.kind === 'workdays');
    const weekday = notebooks.flatMap((n) => days.filter((d) => !isWeekend(d)).map((d) => hoursOn(n, d)));
    const weekend = notebooks.flatMap((n) => days.filter(isWeekend).map((d) => hoursOn(n, d)));
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(weekday)).toBeGreaterThan(2 * mean(weekend));
    expect(weekend.some((h) => h === 24)).toBe(true);
    const idle = notebooks.flatMap((n) => days.flatMap((d) => dayIntervals(n, d))).filter((iv) => iv.activity === 'idle');
    expect(idle.length).toBeGreaterThan(0);
  });

  it('runs sweeps in bursts', () => {
    const sweep = byName('llm-sweep-0');
    const hours = days.map((d) => hoursOn(sweep, d));
    expect(hours.filter((h) => h === 0).length).toBeGreaterThan(7);
    expect(hours.some((h) => h > 0)).toBe(true);
  });

  it('is a pure function of the instance and the day', () => {
    expect(days.map((d) => dayIntervals(byName('alice-notebook'), d))).toEqual(
      days.map((d) => dayIntervals(demoFleet(42).find((i) => i.name === 'alice-notebook')!, d)),
    );
  });
});
