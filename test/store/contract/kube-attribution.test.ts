import { expect, it } from 'vitest';
import type { KubeUsageRow } from '../../../src/domain/kube-usage.js';
import type { SpendRow } from '../../../src/domain/spend.js';
import { describeStores } from '../../support/stores.js';
import { batchOf, expectClose, line, NOVEMBER, sumsBy, writeKubeUsage } from './spend-fixtures.js';

// Kubernetes GPU node cost moved to workloads' teams by the samples' shares (kube-attribution.ts):
// figures worked out by hand from the node's bill lines and the hours each workload held.

const node = (day: string, billed: number, effective: number, over: Partial<SpendRow> = {}): SpendRow =>
  line({ day, team: 'platform', ownerTag: 'platform', resourceId: 'i-node1', usageHours: 24, billed, effective, ...over });

const BILL: SpendRow[] = [
  node('2026-11-03', 48, 40),
  node('2026-11-03', -8, -8, { chargeCategory: 'Credit', usageHours: null }),
  node('2026-11-04', 48, 40),
  node('2026-11-06', 48, 40),
  line({ day: '2026-11-03', team: 'ml', resourceId: 'i-other', billed: 5, effective: 5 }),
];

const held = (day: string, workload: string, team: string | null, nodeHours: number): KubeUsageRow => ({
  day,
  cluster: 'c',
  node: 'n1',
  nodeInstanceId: 'i-node1',
  nodeHourly: 2,
  namespace: workload ? workload.split('/')[1]! : '',
  workload,
  team,
  nodeHours,
});

const SERVE = 'c/vision/Deployment/serve';
const USAGE: KubeUsageRow[] = [
  // Seen all day: shares of the bill's 24 hours.
  held('2026-11-03', SERVE, 'vision', 12),
  held('2026-11-03', 'c/research/Job/nb', null, 6), // no team: stays on the node's line
  held('2026-11-03', '', null, 4), // unrequested GPUs: stay on the node's line
  held('2026-11-03', 'c/platform/Deployment/x', 'platform', 2), // the node's own team: a line of its own
  // Seen 10 of the bill's 24 hours: the rest stays on the node.
  held('2026-11-04', SERVE, 'vision', 10),
  // No bill for the day (yet): nothing moves.
  held('2026-11-05', SERVE, 'vision', 24),
  // Seen for more hours than the bill counts: shares of what was seen.
  held('2026-11-06', SERVE, 'vision', 20),
  held('2026-11-06', 'c/ml/Job/train', 'ml', 10),
];

const VISION = { billed: 40 * (12 / 24) + 48 * (10 / 24) + 48 * (20 / 30), effective: 32 * (12 / 24) + 40 * (10 / 24) + 40 * (20 / 30) };
const ML_MOVED = { billed: 48 * (10 / 30), effective: 40 * (10 / 30) };

describeStores('Kubernetes cost attribution', (store) => {
  it("moves each workload's share of its node's bill to its team, every day still adding up to the bill", async () => {
    await writeKubeUsage(store, USAGE);
    await store().importBatches([batchOf(BILL)]);
    const node = BILL.filter((r) => r.resourceId === 'i-node1');
    const ml = BILL.find((r) => r.team === 'ml')!;
    expectClose(await store().spend.totals({ period: NOVEMBER }, 'team'), [
      { key: 'vision', currency: 'USD', ...VISION },
      {
        key: 'platform',
        currency: 'USD',
        billed: node.reduce((s, r) => s + r.billed, 0) - VISION.billed - ML_MOVED.billed,
        effective: node.reduce((s, r) => s + r.effective, 0) - VISION.effective - ML_MOVED.effective,
      },
      { key: 'ml', currency: 'USD', billed: ml.billed + ML_MOVED.billed, effective: ml.effective + ML_MOVED.effective },
    ]);
    const days = [...sumsBy(BILL, (r) => r.day)].map(([key, sum]) => ({ key, currency: 'USD', ...sum }));
    expectClose(await store().spend.totals({ period: NOVEMBER }, 'day'), days);
  });

  it('gives each workload its own line, named by its workload, and the team days the moved figures', async () => {
    await writeKubeUsage(store, USAGE);
    await store().importBatches([batchOf(BILL)]);
    const resources = await store().spend.totals({ period: NOVEMBER, teams: ['vision'] }, 'resource');
    expectClose(resources, [{ key: `vision/Deployment/serve (k8s:${SERVE})`, currency: 'USD', ...VISION }]);
    const own = (await store().spend.totals({ period: NOVEMBER, teams: ['platform'] }, 'resource')).find((r) => r.key.includes('k8s:'));
    expectClose(own, {
      key: 'platform/Deployment/x (k8s:c/platform/Deployment/x)',
      currency: 'USD',
      billed: 40 * (2 / 24),
      effective: 32 * (2 / 24),
    });
    const third = (await store().spend.dailyByTeam('2026-11-03')).filter((d) => d.day === '2026-11-03');
    // The credit is a one-time charge: it moves too, by the same share, kept apart from usage.
    expectClose(third, [
      { team: 'ml', day: '2026-11-03', currency: 'USD', kind: 'usage', billed: 5, effective: 5 },
      { team: 'platform', day: '2026-11-03', currency: 'USD', kind: 'one-time', billed: -8 / 2, effective: -8 / 2 },
      { team: 'platform', day: '2026-11-03', currency: 'USD', kind: 'usage', billed: 48 / 2, effective: 40 / 2 },
      { team: 'vision', day: '2026-11-03', currency: 'USD', kind: 'one-time', billed: -8 / 2, effective: -8 / 2 },
      { team: 'vision', day: '2026-11-03', currency: 'USD', kind: 'usage', billed: 48 / 2, effective: 40 / 2 },
    ]);
  });

  it("prices a workload at its share of the bill, and its node at the bill's own lines", async () => {
    await writeKubeUsage(store, USAGE);
    await store().importBatches([batchOf(BILL)]);
    const costs = await store().spend.resourceCosts(NOVEMBER, [`k8s:${SERVE}`, 'i-node1']);
    const node = BILL.filter((r) => r.resourceId === 'i-node1');
    expectClose(costs, [
      {
        resourceId: 'i-node1',
        team: 'platform',
        currency: 'USD',
        period: '2026-11',
        commitmentId: null,
        effective: node.reduce((s, r) => s + r.effective, 0),
        days: 3,
        hours: 72,
        commitmentEnd: null,
        provider: 'AWS',
        resourceName: null,
        region: null,
      },
      {
        resourceId: `k8s:${SERVE}`,
        team: 'vision',
        currency: 'USD',
        period: '2026-11',
        commitmentId: null,
        effective: VISION.effective,
        days: 3,
        hours: 24 * (12 / 24) + 24 * (10 / 24) + 24 * (20 / 30),
        commitmentEnd: null,
        provider: 'AWS',
        // The attribution line names the workload without its cluster.
        resourceName: 'vision/Deployment/serve',
        region: null,
      },
    ]);
    // Rates and daily charges of machines read the bill as it is.
    expectClose(
      (await store().spend.resourceDays(NOVEMBER, ['i-node1'])).map((d) => d.effective),
      [40 - 8, 40, 40],
    );
  });

  it('moves the same again when the bill is imported again, never twice', async () => {
    await writeKubeUsage(store, USAGE);
    await store().importBatches([batchOf(BILL)]);
    const once = await store().spend.totals({ period: NOVEMBER }, 'team');
    await store().importBatches([batchOf(BILL)]);
    expectClose(await store().spend.totals({ period: NOVEMBER }, 'team'), once);
    expect((await store().spend.teamsOf('kubernetes', '2026-11-01')).length).toBeGreaterThan(0);
  });
});
