import { describe, expect, it } from 'vitest';
import { daysOf, monthOf } from '../../src/domain/period.js';
import type { KubeSplitCost, KubeUsageRow } from '../../src/domain/kube-usage.js';
import type { SpendRow } from '../../src/domain/spend.js';
import { loadResourceCosts } from '../../src/snapshots/resource-lines.js';
import { spendRow } from '../support/deps.js';
import { expectClose as close } from '../support/yen-bill.js';
import {
  expectMonthAgrees,
  expectMonthToDateAgrees,
  halfDayHeld,
  kubeSplitSurfaces,
  nodeBillRow,
  podSplitRow,
  TEAMS,
  workloadRows,
} from './kube-split-surfaces.js';

// A Kubernetes node billed partly in dollars and partly in yen, whose pod split (AWS split cost
// allocation data) is partly in yen too, over two months whose yen rates (burnrate.yml's, dated per
// billing period) differ. The bill's split is the workloads' cost on every surface, like a node billed
// in one currency: each amount converted at its own month's rate. Written here by hand; expected
// figures are plain sums over these rows (amount × that month's rate), never burnrate's output. A
// rate changed in burnrate.yml after the import is every surface's from the first read.

const NOW = '2026-12-10T09:00:00Z';
const DAYS = daysOf({ start: '2026-11-01', end: '2026-12-10' });
const NODE = 'i-0c0000000000000c3';
/** USD per yen of each billing period: burnrate.yml's rates. */
type Rates = Readonly<Record<string, number>>;
const RATE: Rates = { '2026-11': 0.0067, '2026-12': 0.0065 };
const TRAINER = 'prod/cv/Deployment/trainer';
const EVAL = 'prod/ml/StatefulSet/eval';

const configAt = (rate: Rates) => ({
  ...TEAMS,
  fx: { base: 'USD', periods: { '2026-11': { JPY: rate['2026-11'] }, '2026-12': { JPY: rate['2026-12'] } } },
});
const CONFIG = configAt(RATE);

/** The node's bill each day: its instance hours in dollars, a second charge of it in yen. */
const BILL: SpendRow[] = DAYS.flatMap((day) => [
  nodeBillRow('platform', day, NODE, 200),
  { ...spendRow('platform', day, 6000), resourceId: NODE, currency: 'JPY' },
]);

const usage = (day: string, workload: string, team: string) => halfDayHeld('ip-10-0-1-3', NODE, day, workload, team);

/** burnrate's samples: half the node each, which the bill's split overrules. */
const USAGE: KubeUsageRow[] = DAYS.flatMap((day) => [usage(day, TRAINER, 'vision'), usage(day, EVAL, 'ml')]);

const split = (day: string, namespace: string, pod: string, currency: string, splitCost: number) =>
  podSplitRow(NODE, day, namespace, pod, currency, splitCost);

/** The bill's pod split of the node, in both currencies. */
const SPLIT: KubeSplitCost[] = DAYS.flatMap((day) => [
  split(day, 'cv', 'trainer-5d8c9f7b4-x1k2p', 'USD', 101.37),
  split(day, 'cv', 'trainer-5d8c9f7b4-q7w3z', 'JPY', 3000),
  split(day, 'ml', 'eval-0', 'JPY', 4500),
  split(day, 'ml', 'notebook-7', 'USD', 9.25),
]);

const within = (start: string, end: string) => (r: { day: string }) => r.day >= start && r.day < end;
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
/** An amount in dollars at its billing period's rate. */
const usd = (amount: number, currency: string, period: string, rate: Rates) => (currency === 'JPY' ? amount * rate[period]! : amount);
/** A plain sum, in dollars, of the split rows of namespace `ns` whose pod matches. */
const podSum = (start: string, end: string, ns: string, pod: RegExp, rate = RATE) =>
  sum(
    SPLIT.filter((r) => within(start, end)(r) && r.namespace === ns && pod.test(r.pod)).map((r) =>
      usd(r.splitCost, r.currency, r.billingPeriod, rate),
    ),
  );
const expected = (team: string, start: string, end: string, rate = RATE): number => {
  if (team === 'vision') return podSum(start, end, 'cv', /^trainer-/, rate);
  if (team === 'ml') return podSum(start, end, 'ml', /./, rate);
  const bill = sum(BILL.filter(within(start, end)).map((r) => usd(r.effective, r.currency, r.billingPeriod, rate)));
  return bill - expected('vision', start, end, rate) - expected('ml', start, end, rate);
};

describe("a node-day billed in two currencies is split by the bill's pod split on every surface", () => {
  const surfaces = kubeSplitSurfaces(CONFIG, NOW, { billingPeriods: ['2026-11', '2026-12'], bill: BILL, split: SPLIT, usage: USAGE });

  it("last month: team spend, its JSON, spend --by workload, the review's figures, showback and the resource lines agree", async () => {
    const { start, end } = monthOf('2026-11-01');
    // The bill's split at November's rate, not the samples' half of the node ($120.10 a day).
    close(expected('vision', start, end), 30 * (101.37 + 3000 * 0.0067));

    const workloads = await workloadRows(surfaces, '2026-11');
    const workload = (key: string) => workloads.find((r) => r.key === key);
    close(workload('cv/Deployment/trainer')?.effective, podSum(start, end, 'cv', /^trainer-/));
    expect(workload('cv/Deployment/trainer')?.basis).toBe('bill');
    close(workload('ml/StatefulSet/eval')?.effective, podSum(start, end, 'ml', /^eval-/));
    close(workload('ml/Pod/notebook-7')?.effective, podSum(start, end, 'ml', /^notebook-/));

    await expectMonthAgrees(surfaces, '2026-11', ['vision', 'ml', 'platform'], (team) => expected(team, start, end));

    const costs = await loadResourceCosts(surfaces.deps, { start, end }, [`k8s:${TRAINER}`, `k8s:${EVAL}`], { currency: 'USD' });
    const costOf = (id: string) => sum(costs.lines.filter((l) => l.resourceId === id).map((l) => l.cost));
    close(costOf(`k8s:${TRAINER}`), podSum(start, end, 'cv', /^trainer-/));
    close(costOf(`k8s:${EVAL}`), podSum(start, end, 'ml', /^eval-/));
  });

  it("this month so far, at December's rate: team spend, the budget listing and the gauges /metrics reads agree", async () => {
    const { start } = monthOf('2026-12-01');
    const end = '2026-12-10';
    close(expected('ml', start, end), 9 * (4500 * 0.0065 + 9.25));
    await expectMonthToDateAgrees(surfaces, ['vision', 'ml', 'platform'], (team) => expected(team, start, end));
  });
});

/** burnrate.yml's yen rates after a change made once the bill was imported. */
const CHANGED: Rates = { '2026-11': 0.005, '2026-12': 0.008 };

describe("a rate changed in burnrate.yml after the import is every surface's rate from the first read", () => {
  const surfaces = kubeSplitSurfaces(configAt(CHANGED), NOW, {
    billingPeriods: ['2026-11', '2026-12'],
    bill: BILL,
    split: SPLIT,
    usage: USAGE,
    importedWith: CONFIG,
  });

  it("last month: team spend, its JSON, spend --by workload, the review's figures and showback at the changed rate", async () => {
    const { start, end } = monthOf('2026-11-01');
    const want = (team: string) => expected(team, start, end, CHANGED);
    close(want('ml'), 30 * (4500 * 0.005 + 9.25));

    const workloads = await workloadRows(surfaces, '2026-11');
    close(workloads.find((r) => r.key === 'cv/Deployment/trainer')?.effective, podSum(start, end, 'cv', /^trainer-/, CHANGED));
    close(workloads.find((r) => r.key === 'ml/StatefulSet/eval')?.effective, podSum(start, end, 'ml', /^eval-/, CHANGED));
    await expectMonthAgrees(surfaces, '2026-11', ['vision', 'ml', 'platform'], want);
  });

  it('this month so far: team spend, the budget listing and the gauges /metrics reads at the changed rate', async () => {
    const { start } = monthOf('2026-12-01');
    await expectMonthToDateAgrees(surfaces, ['vision', 'ml', 'platform'], (team) => expected(team, start, '2026-12-10', CHANGED));
  });
});
