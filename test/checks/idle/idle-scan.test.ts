import { describe, expect, it } from 'vitest';
import { compare } from '../../../src/checks/compare.js';
import { detectIdleIntervals, detectIdleIntervalsMany } from '../../../src/checks/idle/detect-idle.js';
import { idlePolicy, type IdlePolicy } from '../../../src/checks/idle/idle-policy.js';
import { IDLE, IdleRuns, NO_DATA, STALLED, UNKNOWN } from '../../../src/checks/idle/idle-runs.js';
import { idleScan, scanGrid, scanWithGaps } from '../../../src/checks/idle/idle-scan.js';
import type { GpuSeries } from '../../../src/domain/gpu-metrics.js';
import { MIN, T0, minutes } from './series.js';

/** A deterministic jumble of busy, idle, stalled and missing stretches, with jittery values. */
function jumble(seed: number, count: number, withPower: boolean, withMemory: boolean): GpuSeries {
  let s = seed >>> 0 || 1;
  const random = () => (s = (Math.imul(s, 1_103_515_245) + 12_345) >>> 0) / 4_294_967_296;
  const util = new Float32Array(count);
  const power = new Float32Array(count);
  const memory = new Float32Array(count);
  for (let i = 0; i < count; ) {
    const kind = Math.floor(random() * 5);
    const end = Math.min(count, i + 1 + Math.floor(random() * 90));
    for (; i < end; i++) {
      const edge = random() < 0.1; // values exactly on the thresholds
      util[i] = [40 + random() * 60, edge ? 5 : random() * 6, edge ? 1 : random() * 1.2, Number.NaN, random() * 100][kind]!;
      power[i] = random() < 0.05 ? Number.NaN : edge ? 60 : 30 + random() * 60;
      memory[i] = random() < 0.05 ? Number.NaN : kind === 2 || random() < 0.3 ? 30_000 : edge ? 1024 : 500;
    }
  }
  const times = Float64Array.from({ length: count }, (_, i) => T0 + i * MIN);
  return { ref: { host: 'h', gpu: '0' }, times, util, power: withPower ? power : null, memUsedMiB: withMemory ? memory : null };
}

const policies: [string, IdlePolicy][] = [
  ['defaults', idlePolicy()],
  ['power confirmed, missing idle', idlePolicy({ power: {}, missing: 'idle', minIdleMinutes: 20, stalled: { minMinutes: 10 } })],
  [
    'lte and gte operators, missing busy',
    idlePolicy({ util: { operator: 'lte', value: 5 }, power: { operator: 'lte', value: 60 }, missing: 'busy', minIdleMinutes: 15 }),
  ],
  [
    'a stall test no fast path knows',
    idlePolicy({ stalled: { util: { operator: 'gte', value: 0 }, memoryMiB: { operator: 'gte', value: 1024 }, minMinutes: 5 } }),
  ],
  ['no stalls', idlePolicy({ stalled: null, minIdleMinutes: 10 })],
];

describe('the two scanning loops', () => {
  // scanGrid skips runs of like samples with a loop per state; scanWithGaps classifies every
  // sample. On series without gaps they must agree exactly, whatever the policy and data.
  for (const [name, policy] of policies) {
    it(`agree on series without gaps: ${name}`, () => {
      for (let seed = 1; seed <= 40; seed++) {
        const series = jumble(seed, 600, seed % 3 !== 0, seed % 4 !== 0);
        const scan = idleScan(series, policy, MIN);
        const [fast, full] = [new IdleRuns(policy.minIdleMinutes * 60, 600), new IdleRuns(policy.minIdleMinutes * 60, 600)];
        const fastEnd = scanGrid(scan, fast, 0, 600, 0);
        const fullEnd = scanWithGaps(scan, full, 0, 600, 0);
        expect(fastEnd).toBe(fullEnd);
        expect(fast.finish(T0 + 600 * MIN)).toEqual(full.finish(T0 + 600 * MIN));
      }
    });
  }

  // Both loops above share the per-sample test; this holds it to the policy's words, written out
  // plainly with the operator table: a sample by sample walk feeding the same bookkeeping.
  for (const [name, policy] of policies) {
    it(`classify every sample as the operator table does: ${name}`, () => {
      for (let seed = 1; seed <= 40; seed++) {
        const series = jumble(seed, 600, seed % 3 !== 0, seed % 4 !== 0);
        const [fast, plain] = [new IdleRuns(policy.minIdleMinutes * 60, 600), new IdleRuns(policy.minIdleMinutes * 60, 600)];
        scanGrid(idleScan(series, policy, MIN), fast, 0, 600, 0);
        let state = 0;
        for (let i = 0; i < 600; i++) {
          const next = plainFlags(series, policy, i, state);
          if (next !== state) plain.enter((state = next), series.times[i]!);
        }
        expect(fast.finish(T0 + 600 * MIN)).toEqual(plain.finish(T0 + 600 * MIN));
      }
    });
  }

  it('give the same answers one series at a time and many at once, with shared or own times', () => {
    const policy = idlePolicy({ power: {} });
    const many = Array.from({ length: 12 }, (_, k) => jumble(k + 100, 300, true, true));
    const shared = many.map((s) => ({ ...s, times: many[0]!.times }));
    const expected = many.map((s) => detectIdleIntervals(s, policy, minutes(300)));
    expect(detectIdleIntervalsMany(many, policy, minutes(300))).toEqual(expected);
    expect(detectIdleIntervalsMany(shared, policy, minutes(300))).toEqual(expected);
    expect(expected.flat().length).toBeGreaterThan(10);
  });
});

/** Sample i's flags by the policy's tests one by one: what missing means, power only confirming, memory proving a stall. */
function plainFlags(series: GpuSeries, policy: IdlePolicy, i: number, state: number): number {
  const u = series.util[i]!;
  if (Number.isNaN(u)) {
    if (policy.missing === 'idle') return IDLE | NO_DATA | (state & STALLED);
    return policy.missing === 'unknown' ? UNKNOWN | NO_DATA : NO_DATA;
  }
  const power = series.power?.[i] ?? Number.NaN;
  const memory = series.memUsedMiB?.[i] ?? Number.NaN;
  const confirmed = policy.power === null || Number.isNaN(power) || compare(power, policy.power.operator, policy.power.value);
  const idle = compare(u, policy.util.operator, policy.util.value) && confirmed;
  const { stalled: stall } = policy;
  const stalled =
    stall !== null &&
    !Number.isNaN(memory) &&
    compare(memory, stall.memoryMiB.operator, stall.memoryMiB.value) &&
    compare(u, stall.util.operator, stall.util.value);
  return (idle ? IDLE : 0) | (stalled ? STALLED : 0);
}
