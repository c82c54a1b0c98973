import { describe, expect, it } from 'vitest';
import { spendReport } from '../../commands/spend.js';
import { daysOf, monthOf } from '../../src/domain/period.js';
import type { KubeSplitCost, KubeUsageRow } from '../../src/domain/kube-usage.js';
import type { SpendRow } from '../../src/domain/spend.js';
import { loadReviewLines } from '../../src/jobs/review/review-lines.js';
import { loadResourceCosts } from '../../src/snapshots/resource-lines.js';
import { expectClose as close } from '../support/yen-bill.js';
import { expectMonthAgrees, expectMonthToDateAgrees, kubeSplitSurfaces, nodeBillRow, TEAMS, workloadRows } from './kube-split-surfaces.js';

// One fact, one figure: what a team's Kubernetes workloads cost is the same on every surface (team
// spend in chat and on the CLI, its JSON, `spend --by workload`, budgets, the monthly review's
// figures and cost lines, showback, the gauges /metrics reads, the resource lines the waste
// diagnosis reads). Where the bill split a node's cost over its pods (AWS split cost allocation
// data), that split is the figure everywhere; burnrate's GPU samples only where it did not.
// Written here by hand: the platform team's two GPU nodes on the bill, the bill's pod split of
// node A every day, and burnrate's samples of both nodes. Expected figures are plain sums over
// these rows, never burnrate's output.

const NOW = '2026-12-10T09:00:00Z';
const DAYS = daysOf({ start: '2026-11-01', end: '2026-12-10' });
const SPLIT_NODE = 'i-0a0000000000000a1';
const ESTIMATED_NODE = 'i-0b0000000000000b2';
const NODE_A_DAY = 240;
const NODE_B_DAY = 96;
const TRAINER = 'prod/cv/Deployment/trainer';
const EVAL = 'prod/ml/StatefulSet/eval';
const BATCH = 'prod/ml/Job/batch';

const CONFIG = TEAMS;

/** The nodes' bill: the platform team's instances, 24 hours a day. */
const BILL: SpendRow[] = DAYS.flatMap((day) => [
  nodeBillRow('platform', day, SPLIT_NODE, NODE_A_DAY),
  nodeBillRow('platform', day, ESTIMATED_NODE, NODE_B_DAY),
]);

const usage = (day: string, nodeInstanceId: string, workload: string, team: string | null, nodeHours: number): KubeUsageRow => ({
  day,
  cluster: 'prod',
  node: nodeInstanceId === SPLIT_NODE ? 'ip-10-0-1-1' : 'ip-10-0-1-2',
  nodeInstanceId,
  nodeHourly: 40,
  namespace: workload === '' ? '' : workload.split('/')[1]!,
  workload,
  team,
  nodeHours,
});

/** burnrate's samples: on node A they would give other shares than the bill's split does. */
const USAGE: KubeUsageRow[] = DAYS.flatMap((day) => [
  usage(day, SPLIT_NODE, TRAINER, 'vision', 12),
  usage(day, SPLIT_NODE, EVAL, 'ml', 12),
  usage(day, ESTIMATED_NODE, BATCH, 'ml', 6),
  usage(day, ESTIMATED_NODE, '', null, 18),
]);

const split = (day: string, namespace: string, pod: string, splitCost: number): KubeSplitCost => ({
  day,
  nodeInstanceId: SPLIT_NODE,
  cluster: 'prod',
  namespace,
  pod,
  billingPeriod: day.slice(0, 7),
  currency: 'USD',
  splitCost,
});

/** The bill's pod split of node A: two trainer replicas, eval's pod, and a pod burnrate never sampled. */
const SPLIT: KubeSplitCost[] = DAYS.flatMap((day) => [
  split(day, 'cv', 'trainer-5d8c9f7b4-x1k2p', 101.37),
  split(day, 'cv', 'trainer-5d8c9f7b4-q7w3z', 20.5),
  split(day, 'ml', 'eval-0', 40.11),
  split(day, 'ml', 'notebook-7', 9.25),
]);

const within = (start: string, end: string) => (r: { day: string }) => r.day >= start && r.day < end;
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
/** A plain sum of the split rows of namespace `ns` whose pod matches. */
const podSum = (start: string, end: string, ns: string, pod: RegExp) =>
  sum(SPLIT.filter((r) => within(start, end)(r) && r.namespace === ns && pod.test(r.pod)).map((r) => r.splitCost));
/** What burnrate's estimate gives the batch job on node B: the node's bill by the GPU-hours sampled. */
const batchSum = (start: string, end: string) => sum(DAYS.filter((d) => within(start, end)({ day: d })).map(() => (NODE_B_DAY * 6) / 24));
const expected = (team: string, start: string, end: string): number => {
  if (team === 'vision') return podSum(start, end, 'cv', /^trainer-/);
  if (team === 'ml') return podSum(start, end, 'ml', /./) + batchSum(start, end);
  const bill = sum(BILL.filter(within(start, end)).map((r) => r.effective));
  return bill - expected('vision', start, end) - expected('ml', start, end);
};

describe("a team's Kubernetes cost is the bill's pod split on every surface", () => {
  const surfaces = kubeSplitSurfaces(CONFIG, NOW, { billingPeriods: ['2026-11', '2026-12'], bill: BILL, split: SPLIT, usage: USAGE });
  const { deps } = surfaces;

  it("last month: team spend, its JSON, spend --by workload, the review's figures and lines, showback and the resource lines agree", async () => {
    const { start, end } = monthOf('2026-11-01');
    const november = { start, end };
    // The bill's split, not the samples (which would give the trainer half of node A: $120 a day).
    close(expected('vision', start, end), 30 * (101.37 + 20.5));

    const workloads = await workloadRows(surfaces, '2026-11');
    const workload = (key: string) => workloads.find((r) => r.key === key);
    close(workload('cv/Deployment/trainer')?.effective, podSum(start, end, 'cv', /^trainer-/));
    expect(workload('cv/Deployment/trainer')?.basis).toBe('bill');
    close(workload('ml/Pod/notebook-7')?.effective, podSum(start, end, 'ml', /^notebook-/));
    close(workload('ml/Job/batch')?.effective, batchSum(start, end));

    await expectMonthAgrees(surfaces, '2026-11', ['vision', 'ml', 'platform'], (team) => expected(team, start, end));

    const lines = await loadReviewLines(deps, 'vision', '2026-11');
    close(lines.find((l) => l.resourceId === `k8s:${TRAINER}`)?.cost, podSum(start, end, 'cv', /^trainer-/));
    const costs = await loadResourceCosts(deps, november, [`k8s:${TRAINER}`, `k8s:prod/ml/Pod/notebook-7`], { currency: 'USD' });
    const costOf = (id: string) => sum(costs.lines.filter((l) => l.resourceId === id).map((l) => l.cost));
    close(costOf(`k8s:${TRAINER}`), podSum(start, end, 'cv', /^trainer-/));
    close(costOf('k8s:prod/ml/Pod/notebook-7'), podSum(start, end, 'ml', /^notebook-/));
  });

  it('this month so far: team spend, the budget listing and the gauges /metrics reads agree', async () => {
    const { start } = monthOf('2026-12-01');
    await expectMonthToDateAgrees(surfaces, ['vision', 'ml', 'platform'], (team) => expected(team, start, '2026-12-10'));
  });

  it('the split rows of a month imported again decide anew: a pod dropped from the split goes back to the node', async () => {
    const { start, end } = monthOf('2026-11-01');
    const kept = SPLIT.filter((r) => r.pod !== 'notebook-7' && r.billingPeriod === '2026-11');
    await deps.store.kubeUsage.replaceSplitCosts('cur', ['2026-11'], kept);
    const ml = (await spendReport(deps, { period: { start, end }, by: 'team', team: 'ml' })).total.effective;
    close(ml, expected('ml', start, end) - podSum(start, end, 'ml', /^notebook-/));
    await deps.store.kubeUsage.replaceSplitCosts(
      'cur',
      ['2026-11'],
      SPLIT.filter((r) => r.billingPeriod === '2026-11'),
    );
  });
});
