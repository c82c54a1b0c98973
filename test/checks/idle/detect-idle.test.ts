import { describe, expect, it } from 'vitest';
import { detectIdleIntervals } from '../../../src/checks/idle/detect-idle.js';
import { idlePolicy } from '../../../src/checks/idle/idle-policy.js';
import { MIN, T0, minutes, repeat, seq, series, timesWithout } from './series.js';

const at = (minute: number) => T0 + minute * MIN;
const policy = idlePolicy();

describe('detectIdleIntervals: utilisation threshold and minimum duration', () => {
  it('counts utilisation under 5% as idle, and exactly 5% as busy', () => {
    expect(detectIdleIntervals(series(repeat(5, 120)), policy, minutes(120))).toEqual([]);
    expect(detectIdleIntervals(series(repeat(4.99, 120)), policy, minutes(120))).toEqual([
      { kind: 'idle', start: at(0), end: at(120), missingSeconds: 0, open: true },
    ]);
  });

  it('takes the operator from the policy', () => {
    const atMost5 = idlePolicy({ util: { operator: 'lte', value: 5 } });
    expect(detectIdleIntervals(series(repeat(5, 120)), atMost5, minutes(120))).toHaveLength(1);
  });

  it('keeps an idle stretch of exactly the minimum and drops one a sample shorter', () => {
    const exactly = series(seq(repeat(80, 10), repeat(0, 60), repeat(80, 10)));
    expect(detectIdleIntervals(exactly, policy, minutes(80))).toEqual([
      { kind: 'idle', start: at(10), end: at(70), missingSeconds: 0, open: false },
    ]);
    const shorter = series(seq(repeat(80, 10), repeat(0, 59), repeat(80, 11)));
    expect(detectIdleIntervals(shorter, policy, minutes(80))).toEqual([]);
  });

  it('only looks inside the range, and clips an interval at its edges', () => {
    const all = series(seq(repeat(0, 100), repeat(90, 20), repeat(0, 100)));
    expect(detectIdleIntervals(all, policy, { start: at(30), end: at(180), stepSeconds: MIN })).toEqual([
      { kind: 'idle', start: at(30), end: at(100), missingSeconds: 0, open: false },
      { kind: 'idle', start: at(120), end: at(180), missingSeconds: 0, open: true },
    ]);
  });
});

describe('detectIdleIntervals: power confirmation', () => {
  const withPower = idlePolicy({ power: { value: 60 } });

  it('needs power under the floor as well, when the series has power', () => {
    expect(detectIdleIntervals(series(repeat(0, 90), { power: repeat(80, 90) }), withPower, minutes(90))).toEqual([]);
    expect(detectIdleIntervals(series(repeat(0, 90), { power: repeat(55, 90) }), withPower, minutes(90))).toHaveLength(1);
  });

  it('judges by utilisation alone where power is missing, or absent from the source', () => {
    const somePower = seq(repeat(55, 30), repeat(Number.NaN, 60));
    expect(detectIdleIntervals(series(repeat(0, 90), { power: somePower }), withPower, minutes(90))).toEqual([
      { kind: 'idle', start: at(0), end: at(90), missingSeconds: 0, open: true },
    ]);
    expect(detectIdleIntervals(series(repeat(0, 90)), withPower, minutes(90))).toHaveLength(1);
  });

  it('ignores power unless the policy asks for it', () => {
    expect(detectIdleIntervals(series(repeat(0, 90), { power: repeat(80, 90) }), policy, minutes(90))).toHaveLength(1);
  });
});

describe('detectIdleIntervals: missing data, by policy', () => {
  // 60 idle minutes, 30 without data, 60 idle: once as NaN samples, once as samples that never came.
  const nanGap = series(seq(repeat(0, 60), repeat(Number.NaN, 30), repeat(0, 60)));
  const timeGap = series(seq(repeat(0, 60), repeat(0, 60)), { times: timesWithout(150, 60, 90) });

  for (const [name, gappy] of [
    ['NaN samples', nanGap],
    ['absent samples', timeGap],
  ] as const) {
    it(`idle: bridges ${name} and says how much was missing`, () => {
      expect(detectIdleIntervals(gappy, idlePolicy({ missing: 'idle' }), minutes(150))).toEqual([
        { kind: 'idle', start: at(0), end: at(150), missingSeconds: 30 * MIN, open: true },
      ]);
    });

    it(`busy: ${name} end idle periods`, () => {
      expect(detectIdleIntervals(gappy, idlePolicy({ missing: 'busy' }), minutes(150))).toEqual([
        { kind: 'idle', start: at(0), end: at(60), missingSeconds: 0, open: false },
        { kind: 'idle', start: at(90), end: at(150), missingSeconds: 0, open: true },
      ]);
    });

    it(`unknown (the default): ${name} split idle periods and are reported`, () => {
      expect(detectIdleIntervals(gappy, policy, minutes(150))).toEqual([
        { kind: 'idle', start: at(0), end: at(60), missingSeconds: 0, open: false },
        { kind: 'unknown', start: at(60), end: at(90), missingSeconds: 30 * MIN, open: false },
        { kind: 'idle', start: at(90), end: at(150), missingSeconds: 0, open: true },
      ]);
    });
  }

  it('treats the time before the first sample as missing', () => {
    const late = series(repeat(0, 90), { start: at(30) });
    expect(detectIdleIntervals(late, policy, minutes(120))).toEqual([
      { kind: 'unknown', start: at(0), end: at(30), missingSeconds: 30 * MIN, open: false },
      { kind: 'idle', start: at(30), end: at(120), missingSeconds: 0, open: true },
    ]);
    expect(detectIdleIntervals(late, idlePolicy({ missing: 'idle' }), minutes(120))).toEqual([
      { kind: 'idle', start: at(0), end: at(120), missingSeconds: 30 * MIN, open: true },
    ]);
  });

  it('lets the newest samples be late by up to maxLagMinutes; later than that, the end is missing', () => {
    const idleUntil = series(repeat(0, 90));
    expect(detectIdleIntervals(idleUntil, policy, minutes(94))).toEqual([
      { kind: 'idle', start: at(0), end: at(90), missingSeconds: 0, open: true },
    ]);
    expect(detectIdleIntervals(idleUntil, policy, minutes(100))).toEqual([
      { kind: 'idle', start: at(0), end: at(90), missingSeconds: 0, open: false },
      { kind: 'unknown', start: at(90), end: at(100), missingSeconds: 10 * MIN, open: true },
    ]);
  });

  it('reports a series with no samples at all as one unknown interval', () => {
    expect(detectIdleIntervals(series([]), policy, minutes(60))).toEqual([
      { kind: 'unknown', start: at(0), end: at(60), missingSeconds: 60 * MIN, open: true },
    ]);
    expect(detectIdleIntervals(series([]), idlePolicy({ missing: 'busy' }), minutes(60))).toEqual([]);
  });
});

describe('detectIdleIntervals: stalled jobs', () => {
  const held = (count: number) => repeat(30_000, count);

  it('finds memory held at near-zero utilisation for 30 minutes, inside the idle stretch around it', () => {
    const util = seq(repeat(90, 10), repeat(0.5, 40), repeat(3, 30), repeat(90, 10));
    const memory = seq(held(10), held(40), repeat(200, 30), held(10));
    expect(detectIdleIntervals(series(util, { memory }), policy, minutes(90))).toEqual([
      { kind: 'stalled', start: at(10), end: at(50), missingSeconds: 0, open: false },
      { kind: 'idle', start: at(10), end: at(80), missingSeconds: 0, open: false },
    ]);
  });

  it('needs the full 30 minutes, utilisation at most 1% and more than 1 GiB held', () => {
    const run = (util: number, mem: number, count: number) =>
      series(seq(repeat(90, 5), repeat(util, count), repeat(90, 5)), { memory: repeat(mem, count + 10) });
    const stalls = (s: ReturnType<typeof run>) => detectIdleIntervals(s, policy, minutes(100)).filter((i) => i.kind === 'stalled');
    expect(stalls(run(1, 30_000, 30))).toHaveLength(1);
    expect(stalls(run(1, 30_000, 29))).toEqual([]);
    expect(stalls(run(1.5, 30_000, 40))).toEqual([]);
    expect(stalls(run(0, 1024, 40))).toEqual([]);
  });

  it('cannot prove a stall where memory is missing, nor without a memory series', () => {
    const memory = seq(held(20), repeat(Number.NaN, 1), held(20));
    expect(detectIdleIntervals(series(repeat(0, 41), { memory }), idlePolicy({ minIdleMinutes: 120 }), minutes(41))).toEqual([]);
    expect(detectIdleIntervals(series(repeat(0, 41)), idlePolicy({ minIdleMinutes: 120 }), minutes(41))).toEqual([]);
  });

  it('carries a stall across missing data only when missing counts as idle', () => {
    const util = seq(repeat(0, 20), repeat(Number.NaN, 20));
    const s = series(util, { memory: seq(held(20), repeat(Number.NaN, 20)) });
    const stalls = (missing: 'idle' | 'busy' | 'unknown') =>
      detectIdleIntervals(s, idlePolicy({ missing }), minutes(40)).filter((i) => i.kind === 'stalled');
    expect(stalls('idle')).toEqual([{ kind: 'stalled', start: at(0), end: at(40), missingSeconds: 20 * MIN, open: true }]);
    expect(stalls('unknown')).toEqual([]);
    expect(stalls('busy')).toEqual([]);
  });

  it('is off when the policy says so', () => {
    const s = series(repeat(0, 40), { memory: held(40) });
    expect(detectIdleIntervals(s, idlePolicy({ stalled: null }), minutes(40))).toEqual([]);
  });
});
