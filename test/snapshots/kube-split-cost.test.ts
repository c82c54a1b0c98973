import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../src/deps.js';
import { UNREQUESTED, type KubeSplitCost, type KubeUsageRow } from '../../src/domain/kube-usage.js';
import { loadKubeCost } from '../../src/snapshots/kube-cost.js';
import { loadSpendReport } from '../../src/snapshots/spend-report.js';
import { spendSummary } from '../../templates/spend-summary.js';
import { spendRow, testDeps } from '../support/deps.js';

// The bill's own pod split (AWS split cost allocation data) wins over burnrate's estimate where it
// exists. Node A is split by the bill on both days; node B, on the first day only, has no split
// rows and keeps the estimate (its bill by the GPU-hours sampled). Every figure is compared with a
// plain sum over the rows written here.

const PERIOD = { start: '2026-11-01', end: '2026-12-01' };
const D1 = '2026-11-02';
const D2 = '2026-11-03';
const SPLIT_NODE = 'i-0a0000000000000a1';
const ESTIMATED_NODE = 'i-0b0000000000000b2';
const TRAINER = 'prod/ml/Deployment/trainer';
const EVAL = 'prod/ml/StatefulSet/eval';
const BATCH = 'prod/ml/Job/batch';

/** What the bill charged each node a day. */
const NODE_BILL = { [SPLIT_NODE]: 240, [ESTIMATED_NODE]: 100 };

const usage = (day: string, nodeInstanceId: string, workload: string, nodeHours: number): KubeUsageRow => ({
  day,
  cluster: 'prod',
  node: nodeInstanceId === SPLIT_NODE ? 'ip-10-0-1-1' : 'ip-10-0-1-2',
  nodeInstanceId,
  nodeHourly: 50,
  namespace: workload === '' ? '' : 'ml',
  workload,
  team: workload === '' ? null : 'ml',
  nodeHours,
});

const USAGE: KubeUsageRow[] = [
  ...[D1, D2].flatMap((day) => [usage(day, SPLIT_NODE, TRAINER, 12), usage(day, SPLIT_NODE, EVAL, 6), usage(day, SPLIT_NODE, '', 6)]),
  usage(D1, ESTIMATED_NODE, BATCH, 8),
  usage(D1, ESTIMATED_NODE, EVAL, 8),
  usage(D1, ESTIMATED_NODE, '', 8),
];

const split = (day: string, pod: string, splitCost: number): KubeSplitCost => ({
  day,
  nodeInstanceId: SPLIT_NODE,
  cluster: 'prod',
  namespace: 'ml',
  pod,
  billingPeriod: day.slice(0, 7),
  currency: 'USD',
  splitCost,
});

// A Deployment's pods (`<name>-<replica set hash>-<id>`), a StatefulSet's (`<name>-<n>`), and a
// notebook pod burnrate never sampled: the bill still names it.
const SPLIT: KubeSplitCost[] = [
  split(D1, 'trainer-5d8c9f7b4-x1k2p', 100),
  split(D1, 'trainer-5d8c9f7b4-q7w3z', 50.25),
  split(D1, 'eval-0', 40.1),
  split(D1, 'notebook-7', 9.5),
  split(D2, 'trainer-5d8c9f7b4-x1k2p', 120),
  split(D2, 'eval-0', 30),
];

const sumOf = (rows: readonly KubeSplitCost[], pod: RegExp) => rows.filter((r) => pod.test(r.pod)).reduce((s, r) => s + r.splitCost, 0);
const cents = (n: number) => Math.round(n * 100) / 100;
/** Lines are rounded once, by the largest remainder: each is within a cent of its exact amount. */
const withinACent = (actual: number | undefined, exact: number) => expect(Math.abs(actual! - exact)).toBeLessThanOrEqual(0.01 + 1e-9);

describe("the Kubernetes cost read model with the bill's pod split", () => {
  let deps: Deps;

  beforeAll(async () => {
    deps = testDeps({ teams: [{ id: 'ml' }], sources: [] }, '2026-11-05T06:00:00Z').deps;
    const bill = [
      ...[D1, D2].map((day) => ({ ...spendRow('ml', day, NODE_BILL[SPLIT_NODE]), resourceId: SPLIT_NODE, usageHours: 24 })),
      { ...spendRow('ml', D1, NODE_BILL[ESTIMATED_NODE]), resourceId: ESTIMATED_NODE, usageHours: 24 },
    ];
    await deps.store.importBatches([
      { scope: { source: 'cur', billingPeriods: ['2026-11'] }, rows: bill, dataThrough: '2026-11-04T00:00:00Z' },
    ]);
    await deps.store.kubeUsage.record('prod', new Date('2026-11-04T00:00:00Z'), USAGE, []);
    await deps.store.kubeUsage.replaceSplitCosts('cur', ['2026-11'], SPLIT);
  });

  afterAll(async () => {
    await deps.store.close();
  });

  it("a workload on split nodes costs the plain sum of its pods' split rows", async () => {
    const { lines } = await loadKubeCost(deps, PERIOD);
    const line = (workload: string) => lines.find((l) => l.workload === workload);
    expect(line(TRAINER)).toMatchObject({ cost: cents(sumOf(SPLIT, /^trainer-/)), basis: 'bill', team: 'ml' });
    // A pod no sample saw is its own line, under its namespace's team.
    expect(line('prod/ml/Pod/notebook-7')).toMatchObject({ cost: 9.5, basis: 'bill', team: 'ml' });
  });

  it('a node without split rows keeps the estimate: its bill by the GPU-hours sampled', async () => {
    const { lines } = await loadKubeCost(deps, PERIOD);
    const line = (workload: string) => lines.find((l) => l.workload === workload);
    expect(line(BATCH)?.basis).toBe('estimate');
    withinACent(line(BATCH)?.cost, (NODE_BILL[ESTIMATED_NODE] * 8) / 24);
    // eval ran on both: its split rows plus its estimated share of node B.
    expect(line(EVAL)?.basis).toBe('mixed');
    withinACent(line(EVAL)?.cost, sumOf(SPLIT, /^eval-/) + (NODE_BILL[ESTIMATED_NODE] * 8) / 24);
  });

  it('what the bill charged a split node beyond its pods is its unrequested GPUs, and the lines add up to the bill', async () => {
    const cost = await loadKubeCost(deps, PERIOD);
    const billTotal = 2 * NODE_BILL[SPLIT_NODE] + NODE_BILL[ESTIMATED_NODE];
    const unrequested = 2 * NODE_BILL[SPLIT_NODE] - sumOf(SPLIT, /./) + (NODE_BILL[ESTIMATED_NODE] * 8) / 24;
    const idle = cost.lines.find((l) => l.namespace === UNREQUESTED);
    expect(idle?.basis).toBe('mixed');
    withinACent(idle?.cost, unrequested);
    expect(cost.total).toBe(billTotal);
    expect(cents(cost.lines.reduce((s, l) => s + l.cost, 0))).toBe(billTotal);
    expect(cost.podSplitNodeDays).toBe(2);
    expect(cost.billedNodeDays).toBe(3);
  });

  it("spend --by workload says which lines are the bill's pod split and which the estimate", async () => {
    const report = await loadSpendReport(deps, { period: PERIOD, by: 'workload' });
    const basisOf = (key: string) => report.rows.find((r) => r.key === key)?.basis;
    expect(basisOf('ml/Deployment/trainer')).toBe('bill');
    expect(basisOf('ml/Job/batch')).toBe('estimate');
    expect(basisOf('ml/StatefulSet/eval')).toBe('mixed');
    expect(report.warnings.join(' ')).toContain('2 node-day(s) split over pods by the bill itself');
    const table = spendSummary(report, 'everyone').blocks.find((b) => b.type === 'table');
    expect(table).toMatchObject({ columns: expect.arrayContaining([{ label: 'From' }]) });
    expect(table && 'rows' in table ? table.rows.find((r) => r[0] === 'ml/Deployment/trainer')?.[3] : null).toBe("bill's pod split");
  });
});
