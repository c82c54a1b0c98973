import { describe, expect, it } from 'vitest';
import type { Deps } from '../../src/deps.js';
import type { GpuSeries, MetricsRange } from '../../src/domain/gpu-metrics.js';
import type { GpuInstance } from '../../src/domain/gpu-inventory.js';
import type { GpuMetricsSource } from '../../src/ports/gpu-metrics-source.js';
import type { Store } from '../../src/store/store.js';
import { runGpuCheck } from '../../src/jobs/gpu-check.js';
import { detectIdleGpus, stillIdle } from '../../src/snapshots/idle-gpus.js';
import { ALICE, findingOf, gpuDemo, press } from '../support/gpu-demo.js';

/** What a metrics source was asked for: the series it handed back, by machine. */
interface MetricsReads {
  series: number;
  hosts: Set<string>;
}

/** The configured metrics sources, each answering as before but counting the series it hands back. */
function countSeries(deps: Deps): MetricsReads {
  const reads: MetricsReads = { series: 0, hosts: new Set() };
  const seen = (series: GpuSeries[]) => {
    reads.series += series.length;
    for (const s of series) reads.hosts.add(s.ref.host);
    return series;
  };
  deps.gpu!.metrics = deps.gpu!.metrics.map(
    (source): GpuMetricsSource => ({
      id: source.id,
      type: source.type,
      fetch: async (range: MetricsRange) => seen(await source.fetch(range)),
      ...(source.fetchInstances
        ? {
            fetchInstances: async (range: MetricsRange, instances: readonly GpuInstance[]) =>
              seen(await source.fetchInstances!(range, instances)),
          }
        : {}),
    }),
  );
  return reads;
}

/** Every call on the bill's tables (spend lines and their breakdowns), counted as the store answers it. */
function countBillReads(deps: Deps): { calls: string[] } {
  const reads = { calls: [] as string[] };
  const counted = <T extends object>(name: string, table: T): T =>
    new Proxy(table, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          reads.calls.push(`${name}.${String(key)}`);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  const store: Store = deps.store;
  deps.store = { ...store, spend: counted('spend', store.spend), breakdowns: counted('breakdowns', store.breakdowns) } as Store;
  // The aggregate's own methods keep reading the real store.
  Object.setPrototypeOf(deps.store, store);
  return reads;
}

describe("a Stop click's re-check", () => {
  it("reads only the clicked instance's series and no bill, where the check reads the whole fleet", async () => {
    const { deps } = gpuDemo((c) => (c.actions.enabled = true));
    const fleet = (await deps.gpu!.inventory()).instances;
    const withGpus = fleet.filter((i) => i.gpuCount > 0);
    expect(withGpus.length).toBeGreaterThan(3);
    const metrics = countSeries(deps);
    const bill = countBillReads(deps);

    // The whole-fleet detection (the scheduled check's read): every machine's series, and the bill.
    const idle = await detectIdleGpus(deps, deps.clock());
    const alice = idle.find((f) => f.name === 'alice-notebook')!;
    expect(metrics.hosts.size).toBeGreaterThan(3);
    const fleetSeries = metrics.series;
    expect(fleetSeries).toBe(withGpus.reduce((sum, i) => sum + i.gpuCount, 0));
    expect(bill.calls.length).toBeGreaterThan(0);

    // One instance: its GPUs' series only, and nothing of the bill.
    metrics.series = 0;
    metrics.hosts.clear();
    bill.calls.length = 0;
    expect(await stillIdle(deps, alice.instanceId)).toBe(true);
    const aliceGpus = fleet.find((i) => i.instanceId === alice.instanceId)!.gpuCount;
    expect(metrics.series).toBe(aliceGpus);
    expect([...metrics.hosts]).toEqual([alice.instanceId]);
    expect(bill.calls).toEqual([]);
  });

  it('reads the same for a click through the dispatcher, and stops the instance', async () => {
    const { deps, port } = gpuDemo((c) => (c.actions.enabled = true));
    await runGpuCheck(deps);
    const id = await findingOf(deps, 'alice-notebook');
    const instanceId = (await deps.store.gpuFindings.get(id))!.instanceId;
    const metrics = countSeries(deps);
    const bill = countBillReads(deps);
    await press(deps, ALICE, 'instance.stop', id);
    expect(port.stopped).toEqual([instanceId]);
    expect([...metrics.hosts]).toEqual([instanceId]);
    expect(bill.calls).toEqual([]);
  });

  it('says busy for an instance the rules find working', async () => {
    const { deps } = gpuDemo();
    const idle = new Set((await detectIdleGpus(deps, deps.clock())).map((f) => f.instanceId));
    const busy = (await deps.gpu!.inventory()).instances.find((i) => i.gpuCount > 0 && i.running !== false && !idle.has(i.instanceId))!;
    expect(await stillIdle(deps, busy.instanceId)).toBe(false);
  });
});
