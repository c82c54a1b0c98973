import { describe, expect, it } from 'vitest';
import { detectIdleIntervals } from '../../../src/checks/idle/detect-idle.js';
import { idlePolicy } from '../../../src/checks/idle/idle-policy.js';
import { addGpuTime, emptyGpuTime } from '../../../src/checks/waste/gpu-time.js';
import type { GpuSeries } from '../../../src/domain/gpu-metrics.js';
import { minutes, repeat, seq, series } from '../idle/series.js';

const policy = idlePolicy(); // idle under 5 % for 60 min; stalled at ≤ 1 % with > 1 GiB held for 30 min
const range = minutes(6 * 60);
const timeOf = (s: GpuSeries) => addGpuTime(emptyGpuTime(), s, detectIdleIntervals(s, policy, range), range, null);

describe('GPU time by cause', () => {
  it('counts a hung job that holds its memory for hours as stalled, not idle, though it outlasts the idle minimum', () => {
    // Busy for 2 h, then 4 h at 0 % holding 20 GiB: a job hung on a dead peer.
    const hung = series(seq(repeat(90, 120), repeat(0, 240)), { memory: repeat(20_480, 360) });
    const time = timeOf(hung);
    expect(time).toMatchObject({ observed: 360 * 60, stalled: 240 * 60, idle: 0 });

    // The same 4 h with its memory released: idle, not stalled.
    const released = series(seq(repeat(90, 120), repeat(0, 240)), { memory: seq(repeat(20_480, 120), repeat(300, 240)) });
    expect(timeOf(released)).toMatchObject({ observed: 360 * 60, stalled: 0, idle: 240 * 60 });
  });

  it('counts a MIG slice at its share of its physical GPU', () => {
    // An A30's 2g.12gb slice, idle for 6 h: half a GPU for 6 h.
    const slice: GpuSeries = { ...series(repeat(0, 360), { memory: repeat(5, 360) }) };
    slice.ref = { host: 'a30-box', gpu: '0', model: 'NVIDIA A30', mig: { instance: '1', profile: '2g.12gb' } };
    expect(timeOf(slice)).toMatchObject({ observed: 0.5 * 360 * 60, idle: 0.5 * 360 * 60, stalled: 0 });
  });
});
