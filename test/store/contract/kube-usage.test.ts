import { expect, it } from 'vitest';
import type { KubeUsageRow, PoolSample } from '../../../src/domain/kube-usage.js';
import type { Store } from '../../../src/store/store.js';
import { spendRow } from '../../support/deps.js';
import { withSecondReplica } from '../../support/second-replica.js';
import { describeStores } from '../../support/stores.js';

const TRAINER = 'prod/ml/Deployment/trainer';

const usage = (day: string, nodeHours: number, overrides: Partial<KubeUsageRow> = {}): KubeUsageRow => ({
  day,
  cluster: 'prod',
  node: 'ip-10-0-1-17',
  nodeInstanceId: 'i-0node',
  nodeHourly: 10.06,
  namespace: 'ml',
  workload: TRAINER,
  team: 'ml-research',
  nodeHours,
  ...overrides,
});

const pool = (at: string, nodes: number, overrides: Partial<PoolSample> = {}): PoolSample => ({
  cluster: 'prod',
  pool: 'gpu-a100',
  manager: 'karpenter',
  at: new Date(at),
  hours: 1,
  nodes,
  gpus: nodes * 8,
  requested: 4.5,
  hourly: nodes * 32.77,
  ...overrides,
});

describeStores('kube usage', (store) => {
  it('moves the sample clock with each sample', async () => {
    expect(await store().kubeUsage.lastSample('prod')).toBeNull();
    await store().kubeUsage.record('prod', new Date('2026-11-03T10:00:00Z'), [], [pool('2026-11-03T10:00:00Z', 2, { hours: 0 })]);
    await store().kubeUsage.record('prod', new Date('2026-11-03T10:05:00Z'), [], []);
    expect(await store().kubeUsage.lastSample('prod')).toEqual(new Date('2026-11-03T10:05:00Z'));
    expect(await store().kubeUsage.lastSample('staging')).toBeNull();
  });

  it("adds each sample's hours to its workload's day; the rest is the latest sample's", async () => {
    await store().kubeUsage.record(
      'prod',
      new Date('2026-11-03T10:00:00Z'),
      [
        usage('2026-11-03', 0.5),
        usage('2026-11-03', 0.25, { workload: '', namespace: '', team: null }),
        usage('2026-11-02', 3, { node: 'ip-10-0-1-9', nodeInstanceId: null }),
        // The same key twice in one sample adds up too.
        usage('2026-11-03', 0.125, { nodeHourly: 11 }),
      ],
      [],
    );
    await store().kubeUsage.record('prod', new Date('2026-11-03T11:00:00Z'), [usage('2026-11-03', 1, { team: 'nlp', nodeHourly: 12 })], []);

    expect(await store().kubeUsage.rows({ start: '2026-11-01', end: '2026-11-04' })).toEqual([
      usage('2026-11-02', 3, { node: 'ip-10-0-1-9', nodeInstanceId: null }),
      usage('2026-11-03', 0.25, { workload: '', namespace: '', team: null }),
      usage('2026-11-03', 1.625, { team: 'nlp', nodeHourly: 12 }),
    ]);
    expect(await store().kubeUsage.rows({ start: '2026-11-03', end: '2026-11-04' })).toHaveLength(2);
    expect(await store().kubeUsage.rows({ start: '2026-11-04', end: '2026-12-01' })).toEqual([]);
  });

  it('lists rows by day, then cluster, node, namespace and workload in byte order', async () => {
    const rows = [
      usage('2026-11-03', 1, { cluster: 'b', workload: 'b/ml/Job/x' }),
      usage('2026-11-03', 1, { cluster: 'B', workload: 'B/ml/Job/x' }),
      usage('2026-11-03', 1, { cluster: 'B', node: 'A', workload: 'B/ml/Job/x' }),
      usage('2026-11-03', 1, { cluster: 'B', node: 'A', namespace: 'ml', workload: 'B/ml/Job/a' }),
      usage('2026-11-03', 1, { cluster: 'B', node: 'A', namespace: 'Ml', workload: 'B/Ml/Job/x' }),
      usage('2026-11-02', 1, { cluster: 'c' }),
    ];
    await store().kubeUsage.record('all', new Date('2026-11-03T10:00:00Z'), rows, []);
    expect(await store().kubeUsage.rows({ start: '2026-11-01', end: '2026-11-04' })).toEqual([
      rows[5],
      rows[4],
      rows[3],
      rows[2],
      rows[1],
      rows[0],
    ]);
  });

  it('keeps pool samples of the period, one per pool and time', async () => {
    await store().kubeUsage.record(
      'prod',
      new Date('2026-11-03T10:00:00Z'),
      [],
      [
        pool('2026-11-03T10:00:00.000Z', 2),
        pool('2026-11-03T09:00:00.000Z', 1, { pool: 'gpu-L4', manager: null }),
        pool('2026-10-31T23:00:00.000Z', 5),
        pool('2026-11-03T10:00:00.000Z', 3, { pool: 'gpu-a10', manager: 'eks' }),
      ],
    );
    // Sampled again at the same time: the later sample stands.
    await store().kubeUsage.record('prod', new Date('2026-11-03T10:00:00Z'), [], [pool('2026-11-03T10:00:00.000Z', 4, { requested: 8 })]);

    expect(await store().kubeUsage.poolSamples({ start: '2026-11-01', end: '2026-11-04' })).toEqual([
      pool('2026-11-03T09:00:00.000Z', 1, { pool: 'gpu-L4', manager: null }),
      pool('2026-11-03T10:00:00.000Z', 3, { pool: 'gpu-a10', manager: 'eks' }),
      pool('2026-11-03T10:00:00.000Z', 4, { requested: 8 }),
    ]);
    expect(await store().kubeUsage.poolSamples({ start: '2026-10-31', end: '2026-11-01' })).toEqual([pool('2026-10-31T23:00:00.000Z', 5)]);
  });

  it("moves a node's bill to its workloads' teams by their share of its hours, anew with each sample", async () => {
    await billNode(store());
    await store().kubeUsage.record(
      'prod',
      new Date('2026-11-03T12:00:00Z'),
      [usage('2026-11-03', 12), usage('2026-11-03', 12, { workload: '', namespace: '', team: null })],
      [],
    );
    expect(await teamDays(store())).toEqual({ 'ml-research': 120, platform: 120 });

    // More hours seen than billed: shares of the hours seen.
    await store().kubeUsage.record('prod', new Date('2026-11-03T13:00:00Z'), [usage('2026-11-03', 6)], []);
    expect(await teamDays(store())).toEqual({ 'ml-research': 144, platform: 96 });
  });

  it('moves the bill once when replicas record samples at once', async (context) => {
    await withSecondReplica(store, context, async (other) => {
      await billNode(store());
      const sample = (s: Store, cluster: string, team: string) =>
        s.kubeUsage.record(
          cluster,
          new Date('2026-11-03T12:00:00Z'),
          [usage('2026-11-03', 6, { cluster, team, workload: `${cluster}/ml/Job/x` })],
          [],
        );
      await Promise.all([
        sample(store(), 'a', 'nlp'),
        sample(other, 'b', 'vision'),
        sample(store(), 'c', 'nlp'),
        sample(other, 'd', 'vision'),
      ]);
      expect(await teamDays(store())).toEqual({ nlp: 120, vision: 120 });
    });
  });
});

/** A GPU node of the platform team billed $240 for 24 hours on 3 November. */
async function billNode(store: Store): Promise<void> {
  await store.importBatches([
    {
      scope: { source: 'aws-cur', billingPeriods: ['2026-11'] },
      rows: [{ ...spendRow('platform', '2026-11-03', 240), resourceId: 'i-0node', usageHours: 24 }],
      dataThrough: '2026-11-04T00:00:00Z',
    },
  ]);
}

/** Each team's effective spend on 3 November. */
async function teamDays(store: Store): Promise<Record<string, number>> {
  const days = await store.spend.dailyByTeam('2026-11-03');
  return Object.fromEntries(days.map((d) => [d.team, Math.round(d.effective * 100) / 100]).filter(([, amount]) => amount !== 0));
}
