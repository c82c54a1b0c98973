import { describe, expect, it } from 'vitest';
import { sweepCapFindings } from '../../../src/checks/sweeps/sweep-caps.js';
import { sweepUsage } from '../../../src/checks/sweeps/sweep-usage.js';
import type { GpuInstance } from '../../../src/domain/gpu-inventory.js';
import type { GpuSeries } from '../../../src/domain/gpu-metrics.js';

const HOUR = 3600;
/** Ten hours of hourly samples. */
const range = { start: 0, end: 10 * HOUR, stepSeconds: HOUR };
const times = Float64Array.from({ length: 10 }, (_, i) => i * HOUR);

function instance(id: string, tags: Record<string, string>, team = 'ml', hourlyPrice = 4, gpuCount = 2): GpuInstance {
  return {
    instanceId: id,
    name: id,
    provider: 'aws',
    region: 'us-east-1',
    instanceType: 'g5.12xlarge',
    gpuModel: 'A10G',
    gpuCount,
    gpuMemoryGiB: 96,
    hourlyPrice,
    lifecycle: 'spot',
    team,
    ownerTag: team,
    workload: 'sweep',
    protected: false,
    owner: null,
    tags,
  };
}

/** GPU `gpu` of `host` reporting during hours [from, to). */
function series(host: string, gpu: string, from: number, to: number): GpuSeries {
  const util = Float32Array.from(times, (t) => (t >= from * HOUR && t < to * HOUR ? 90 : Number.NaN));
  return { ref: { host, gpu }, times, util, power: null, memUsedMiB: null };
}

describe('sweep usage', () => {
  it('adds running hours, GPU-hours and spend per sweep from the metrics, and knows what runs now', () => {
    const inventory = [
      instance('a', { sweep: 'lr' }),
      instance('b', { Sweep: 'lr' }),
      instance('c', { sweep: 'other' }, 'ml', 1, 1),
      instance('d', {}),
      instance('e', { sweep: 'lr' }, 'vision'),
    ];
    const data = [
      series('a', '0', 0, 10),
      series('a', '1', 0, 5),
      series('b', '0', 2, 6),
      series('b', '1', 2, 6),
      series('c', '0', 9, 10),
      series('d', '0', 0, 10),
    ];
    const usage = sweepUsage(inventory, data, range, 'sweep');
    expect(usage.map((u) => `${u.team}/${u.sweep}`)).toEqual(['ml/lr', 'ml/other', 'vision/lr']);
    const lr = usage[0]!;
    // a: ran 10 h at $4 (GPU 0 all along, GPU 1 for 5 h: 15 GPU-hours); b: ran 4 h on both GPUs (8 GPU-hours).
    expect(lr.instances.map((i) => [i.instanceId, i.runningHours, i.gpuHours, i.spend, i.running])).toEqual([
      ['a', 10, 15, 40, true],
      ['b', 4, 8, 16, false],
    ]);
    expect([lr.spend, lr.gpuHours, lr.perHour]).toEqual([56, 23, 4]);
    expect(usage[2]!.instances).toEqual([expect.objectContaining({ instanceId: 'e', runningHours: 0, spend: 0, running: false })]);
  });

  it('finds each cap crossed once, and nothing for teams without caps', () => {
    const usage = sweepUsage(
      [instance('a', { sweep: 'lr' }), instance('z', { sweep: 'lr' }, 'vision')],
      [series('a', '0', 0, 10), series('a', '1', 0, 10), series('z', '0', 0, 10)],
      range,
      'sweep',
    );
    const found = sweepCapFindings(usage, new Map([['ml', { spend: 30, gpuHours: 50 }]]), 10);
    expect(found.map((f) => [f.id, f.value, f.cap])).toEqual([['sweep.spend:ml:lr', 40, 30]]);
    const both = sweepCapFindings(usage, new Map([['ml', { spend: 30, gpuHours: 19.5 }]]), 10);
    expect(both.map((f) => f.kind)).toEqual(['sweep.spend', 'sweep.gpu-hours']);
    expect(sweepCapFindings(usage, new Map([['ml', { spend: 40 }]]), 10)).toEqual([]);
  });
});
