import { describe, expect, it } from 'vitest';
import { staticCapacity } from '../../../src/checks/kubernetes/static-capacity.js';
import { DEFAULT_SCHEDULE } from '../../../src/checks/idle/team-schedule.js';
import type { PoolSample } from '../../../src/domain/kube-usage.js';

// Monday 16 Nov 2026 00:00 UTC; a sample every hour for two days.
const START = Date.parse('2026-11-16T00:00:00Z');
const hourly = (pool: string, f: (hour: number) => { nodes: number; requested: number }, manager: PoolSample['manager'] = 'karpenter') =>
  Array.from({ length: 48 }, (_, h): PoolSample => {
    const { nodes, requested } = f(h);
    return {
      cluster: 'c',
      pool,
      manager,
      at: new Date(START + (h + 1) * 3_600_000),
      hours: 1,
      nodes,
      gpus: nodes * 8,
      requested,
      hourly: nodes * 32.77,
    };
  });

describe('staticCapacity', () => {
  it("finds a pool that holds nodes all night while its GPUs wait, and prices the nights' idle GPUs", () => {
    // Two 8-GPU nodes; 16 GPUs requested 09:00–19:00 UTC, 2 otherwise.
    const samples = hourly('p4d-static', (h) => {
      const hourOfDay = h % 24; // the sample at h+1 covers the hour h..h+1
      return { nodes: 2, requested: hourOfDay >= 9 && hourOfDay < 19 ? 16 : 2 };
    });
    const [pool, ...others] = staticCapacity({ samples, schedule: DEFAULT_SCHEDULE });
    expect(others).toEqual([]);
    // By hand: a sample stamped at hour h+1 is "working" when h+1 falls in 09:00–19:00 (weekdays).
    let offCost = 0;
    let idle = 0;
    for (const s of samples) {
      const hour = s.at.getUTCHours();
      idle += (s.gpus - s.requested) * s.hours;
      if (!(hour >= 9 && hour < 19)) offCost += ((s.gpus - s.requested) / s.gpus) * s.hourly * s.hours;
    }
    expect(pool).toMatchObject({ cluster: 'c', pool: 'p4d-static', minNodes: 2, maxNodes: 2, gpuHours: 768, idleGpuHours: idle });
    expect(pool!.offHoursMonthly).toBeCloseTo((offCost / 48) * (365.25 / 12) * 24, 2);
    expect(pool!.setting).toContain('consolidationPolicy: WhenEmptyOrUnderutilized');
    expect(pool!.evidence[0]).toContain('never scaled to zero');
  });

  it('leaves alone a pool that scaled to zero, one mostly requested, and one seen under a day', () => {
    const scaled = hourly('burst', (h) => (h % 24 < 9 ? { nodes: 0, requested: 0 } : { nodes: 1, requested: 1 }));
    const busy = hourly('busy', () => ({ nodes: 4, requested: 30 }));
    const young = hourly('young', () => ({ nodes: 1, requested: 0 })).slice(0, 10);
    expect(staticCapacity({ samples: [...scaled, ...busy, ...young], schedule: DEFAULT_SCHEDULE })).toEqual([]);
  });

  it("names the setting of each pool's manager", () => {
    const idle = () => ({ nodes: 1, requested: 0 });
    const found = staticCapacity({
      samples: [
        ...hourly('ng', idle, 'eks'),
        ...hourly('gk', idle, 'gke'),
        ...hourly('ak', idle, 'aks'),
        ...hourly('(no node pool)', idle, null),
      ],
      schedule: DEFAULT_SCHEDULE,
    });
    const setting = (pool: string) => found.find((p) => p.pool === pool)!.setting;
    expect(setting('ng')).toContain('minSize to 0');
    expect(setting('gk')).toContain('--total-min-nodes=0');
    expect(setting('ak')).toContain('--min-count 0');
    expect(setting('(no node pool)')).toContain('belong to no autoscaled pool');
  });
});
