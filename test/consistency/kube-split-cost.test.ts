import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spendReport } from '../../commands/spend.js';
import { daysOf, monthOf } from '../../src/domain/period.js';
import type { KubeSplitCost, KubeUsageRow } from '../../src/domain/kube-usage.js';
import type { SpendRow } from '../../src/domain/spend.js';
import { loadReviewFigures } from '../../src/jobs/review/review-figures.js';
import { loadReviewLines } from '../../src/jobs/review/review-lines.js';
import { listBudgets } from '../../src/snapshots/budget-listing.js';
import { loadMonthShowback } from '../../src/snapshots/month-showback.js';
import { loadResourceCosts } from '../../src/snapshots/resource-lines.js';
import { loadTeamGauges } from '../../src/snapshots/team-gauges.js';
import { cli, workDir } from '../support/run-cli.js';
import { spendRow, testDeps } from '../support/deps.js';
import { expectClose as close } from '../support/yen-bill.js';

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

const CONFIG = {
  teams: [
    { id: 'platform', budget: { monthly: 100_000, currency: 'USD', thresholds: [100] } },
    { id: 'vision', budget: { monthly: 10_000, currency: 'USD', thresholds: [100] } },
    { id: 'ml', budget: { monthly: 10_000, currency: 'USD', thresholds: [100] } },
  ],
  admins: ['U0ADMIN'],
};

/** The nodes' bill: the platform team's instances, 24 hours a day. */
const BILL: SpendRow[] = DAYS.flatMap((day) => [
  { ...spendRow('platform', day, NODE_A_DAY), resourceId: SPLIT_NODE, usageHours: 24 },
  { ...spendRow('platform', day, NODE_B_DAY), resourceId: ESTIMATED_NODE, usageHours: 24 },
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
  const cwd = workDir();
  const db = join(cwd, 'burnrate.db');
  const { deps } = testDeps(CONFIG, NOW, db);
  const teamOf = (id: string) => deps.config.teams.find((t) => t.id === id)!;

  beforeAll(async () => {
    writeFileSync(join(cwd, 'burnrate.yml'), JSON.stringify(CONFIG));
    await deps.store.importBatches([
      {
        scope: { source: 'cur', billingPeriods: ['2026-11', '2026-12'] },
        rows: BILL,
        podSplits: SPLIT,
        dataThrough: '2026-12-10T00:00:00Z',
      },
    ]);
    await deps.store.kubeUsage.record('prod', new Date('2026-12-10T00:00:00Z'), USAGE, []);
  });
  afterAll(() => deps.store.close());

  it("last month: team spend, its JSON, spend --by workload, the review's figures and lines, showback and the resource lines agree", async () => {
    const { start, end } = monthOf('2026-11-01');
    const november = { start, end };
    // The bill's split, not the samples (which would give the trainer half of node A: $120 a day).
    close(expected('vision', start, end), 30 * (101.37 + 20.5));

    const workloads = JSON.parse(
      (await cli(['spend', '--db', db, '--by', 'workload', '--period', '2026-11', '--json'], { cwd, now: NOW })).out,
    ) as { rows: { key: string; effective: number; basis: string }[] };
    const workload = (key: string) => workloads.rows.find((r) => r.key === key);
    close(workload('cv/Deployment/trainer')?.effective, podSum(start, end, 'cv', /^trainer-/));
    expect(workload('cv/Deployment/trainer')?.basis).toBe('bill');
    close(workload('ml/Pod/notebook-7')?.effective, podSum(start, end, 'ml', /^notebook-/));
    close(workload('ml/Job/batch')?.effective, batchSum(start, end));

    const showback = await loadMonthShowback(deps, '2026-11');
    for (const team of ['vision', 'ml', 'platform']) {
      const want = expected(team, start, end);
      close((await spendReport(deps, { period: november, by: 'team', team })).total.effective, want);
      const json = JSON.parse(
        (await cli(['spend', '--db', db, '--team', team, '--period', '2026-11', '--json'], { cwd, now: NOW })).out,
      ) as {
        total: { effective: number };
      };
      close(json.total.effective, want);
      close((await loadReviewFigures(deps, teamOf(team), '2026-11', null)).spend, want);
      expect(Math.abs(showback.result.lines.find((l) => l.team === team)!.direct - want)).toBeLessThan(0.01);
    }

    const lines = await loadReviewLines(deps, 'vision', '2026-11');
    close(lines.find((l) => l.resourceId === `k8s:${TRAINER}`)?.cost, podSum(start, end, 'cv', /^trainer-/));
    const costs = await loadResourceCosts(deps, november, [`k8s:${TRAINER}`, `k8s:prod/ml/Pod/notebook-7`], { currency: 'USD' });
    const costOf = (id: string) => sum(costs.lines.filter((l) => l.resourceId === id).map((l) => l.cost));
    close(costOf(`k8s:${TRAINER}`), podSum(start, end, 'cv', /^trainer-/));
    close(costOf('k8s:prod/ml/Pod/notebook-7'), podSum(start, end, 'ml', /^notebook-/));
  });

  it('this month so far: team spend, the budget listing and the gauges /metrics reads agree', async () => {
    const { start } = monthOf('2026-12-01');
    const end = '2026-12-10';
    const listing = await listBudgets(deps, deps.clock());
    const gauges = await loadTeamGauges(deps);
    for (const team of ['vision', 'ml', 'platform']) {
      const want = expected(team, start, end);
      close((await spendReport(deps, { period: { start, end: '2027-01-01' }, by: 'team', team })).total.effective, want);
      close(listing.budgets.find((b) => b.team === team && b.name === 'monthly')?.actual, want);
      close(gauges.find((g) => g.team === team)?.spendMonthToDate, want);
    }
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
