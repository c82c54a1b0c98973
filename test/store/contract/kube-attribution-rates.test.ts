import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FxRates } from '../../../src/domain/fx.js';
import type { KubeSplitCost, KubeUsageRow } from '../../../src/domain/kube-usage.js';
import type { SpendRow } from '../../../src/domain/spend.js';
import { openPostgresStore } from '../../../src/store/postgres/open-postgres-store.js';
import { openStore } from '../../../src/store/sqlite/open-sqlite-store.js';
import type { Store } from '../../../src/store/store.js';
import { freshDatabase, postgresAvailable } from '../../support/postgres.js';
import { workDir } from '../../support/run-cli.js';
import { batchOf, line, NOVEMBER } from './spend-fixtures.js';

// A node-day billed in dollars and in yen, split by the bill in both: its moves to the workloads'
// teams are fractions reckoned at burnrate.yml's yen rate (kube-attribution-rates.ts). Worked by
// hand: at the rate every figure converts at, the vision pod's moves are worth its own $30 and the
// ml pod's its ¥3,000. A store opened with another rate than the import's makes them anew before
// its first read, on both databases.

const fxAt = (jpy: number): FxRates => ({ base: 'USD', rates: { JPY: jpy } });
const BEFORE = 0.01;
const AFTER = 0.005;

const node = (currency: string, amount: number, usageHours: number | null): SpendRow =>
  line({ team: 'platform', ownerTag: 'platform', resourceId: 'i-node1', currency, billed: amount, effective: amount, usageHours });
const BILL = [node('USD', 100, 24), node('JPY', 10_000, null)];

const pod = (namespace: string, name: string, currency: string, splitCost: number): KubeSplitCost => ({
  day: '2026-11-03',
  nodeInstanceId: 'i-node1',
  cluster: 'c',
  namespace,
  pod: name,
  billingPeriod: '2026-11',
  currency,
  splitCost,
});
const SPLIT = [pod('vision', 'serve-5d8c9f7b4-x1k2p', 'USD', 30), pod('ml', 'train-0', 'JPY', 3000)];

const held = (workload: string, team: string): KubeUsageRow => ({
  day: '2026-11-03',
  cluster: 'c',
  node: 'n1',
  nodeInstanceId: 'i-node1',
  nodeHourly: 2,
  namespace: workload.split('/')[1]!,
  workload,
  team,
  nodeHours: 12,
});
const USAGE = [held('c/vision/Deployment/serve', 'vision'), held('c/ml/StatefulSet/train', 'ml')];

const engines: { name: string; where: () => Promise<string>; open: (where: string, fx: FxRates) => Store }[] = [
  { name: 'sqlite', where: async () => join(workDir(), 'burnrate.db'), open: (path, fx) => openStore(path, { fx }) },
  ...(postgresAvailable()
    ? [{ name: 'postgres', where: freshDatabase, open: (url: string, fx: FxRates) => openPostgresStore(url, { poolSize: 2, fx }) }]
    : []),
];

describe.each(engines)("Kubernetes moves at burnrate.yml's rates [$name]", ({ where, open }) => {
  it('a store opened with another rate makes the moves of a node-day billed in two currencies anew before its first read', async () => {
    const at = await where();
    const before = open(at, fxAt(BEFORE));
    await before.kubeUsage.record('c', new Date('2026-11-20T00:00:00Z'), USAGE, []);
    await before.importBatches([{ ...batchOf(BILL, { source: 'cur' }), podSplits: SPLIT }]);
    await before.close();

    const after = open(at, fxAt(AFTER));
    try {
      const teams = await after.spend.totals({ period: NOVEMBER }, 'team');
      const worth = (team: string) =>
        teams.filter((t) => t.key === team).reduce((sum, t) => sum + t.effective * (t.currency === 'JPY' ? AFTER : 1), 0);
      expect(worth('vision')).toBeCloseTo(30, 9);
      expect(worth('ml')).toBeCloseTo(3000 * AFTER, 9);
      expect(worth('platform')).toBeCloseTo(100 + 10_000 * AFTER - 30 - 3000 * AFTER, 9);
    } finally {
      await after.close();
    }
  });
});
