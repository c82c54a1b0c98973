import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { readFocusFiles } from '../../../src/providers/focus/read-focus.js';
import { openStore } from '../../../src/store/sqlite/open-sqlite-store.js';
import { pullContext, tempDir } from './helpers.js';

// A CUR 2.0 export with split cost allocation data, written by hand after the CUR 2.0 data
// dictionary: the node's instance line, and per pod and hour its CPU, memory and GPU lines (resource
// id the pod's ARN, parent the instance, no cost of their own). Imported through the real path; each
// pod-day stored is compared with a plain sum of its lines, and the bill's total with the instance's line.

const tmp = tempDir();
const store = openStore(':memory:');
afterAll(async () => {
  await store.close();
  tmp.cleanup();
});

const HEADER = [
  'bill_billing_period_start_date',
  'bill_billing_period_end_date',
  'bill_payer_account_id',
  'line_item_usage_account_id',
  'line_item_line_item_type',
  'line_item_usage_start_date',
  'line_item_usage_end_date',
  'line_item_product_code',
  'line_item_resource_id',
  'line_item_unblended_cost',
  'line_item_currency_code',
  'split_line_item_parent_resource_id',
  'split_line_item_split_cost',
  'split_line_item_unused_cost',
];
const NODE = 'i-0a0000000000000a1';
const NODE_COST = 98.32;
const arn = (ns: string, pod: string) => `arn:aws:eks:us-east-1:111122223333:pod/prod/${ns}/${pod}/0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0`;
const TRAINER = arn('ml', 'trainer-5d8c9f7b4-x1k2p');
const NOTEBOOK = arn('research', 'notebook-7');

/** [usage start, resource, split cost] of each pod line: per hour a GPU line (nine tenths of a GPU pod's weight), CPU and memory. */
const POD_LINES: [string, string, string][] = [
  ['2026-11-02T00:00:00Z', TRAINER, '27.531'],
  ['2026-11-02T00:00:00Z', TRAINER, '1.5296'],
  ['2026-11-02T00:00:00Z', TRAINER, '1.5294'],
  ['2026-11-02T01:00:00Z', TRAINER, '27.531'],
  ['2026-11-02T00:00:00Z', NOTEBOOK, '0.412'],
  ['2026-11-03T00:00:00Z', TRAINER, '30.59'],
];

function curCsv(path: string, withSplit = true): string {
  const header = withSplit ? HEADER : HEADER.slice(0, 11);
  const line = (start: string, resource: string, cost: string, split: string[]) =>
    [
      '2026-11-01T00:00:00Z',
      '2026-12-01T00:00:00Z',
      '111111111111',
      '111122223333',
      'Usage',
      start,
      start.replace('T00', 'T01'),
      'AmazonEC2',
      resource,
      cost,
      'USD',
      ...split,
    ]
      .slice(0, header.length)
      .join(',');
  const rows = [
    // The instance's own line holds its whole cost; no parent.
    line('2026-11-02T00:00:00Z', NODE, String(NODE_COST), ['', '', '']),
    ...(withSplit ? POD_LINES.map(([start, resource, cost]) => line(start, resource, '0', [NODE, cost, '0.1'])) : []),
  ];
  writeFileSync(path, [header.join(','), ...rows].join('\n') + '\n');
  return path;
}

const sum = (day: string, resource: string) =>
  POD_LINES.filter(([start, r]) => start.startsWith(day) && r === resource).reduce((s, [, , c]) => s + Number(c), 0);

describe('the pod split of a CUR 2.0 export (split cost allocation data)', () => {
  it("stores each pod's lines of a day on its node as one amount, named by its ARN's cluster, namespace and pod", async () => {
    await store.importBatches([await readFocusFiles([curCsv(tmp.path('cur.csv'))], pullContext())]);
    const rows = await store.kubeUsage.splitCosts({ start: '2026-11-01', end: '2026-12-01' });
    expect(rows.map((r) => [r.day, r.namespace, r.pod])).toEqual([
      ['2026-11-02', 'ml', 'trainer-5d8c9f7b4-x1k2p'],
      ['2026-11-02', 'research', 'notebook-7'],
      ['2026-11-03', 'ml', 'trainer-5d8c9f7b4-x1k2p'],
    ]);
    expect(rows[0]!.splitCost).toBeCloseTo(sum('2026-11-02', TRAINER), 9);
    expect(rows[1]!.splitCost).toBeCloseTo(sum('2026-11-02', NOTEBOOK), 9);
    expect(rows[2]!.splitCost).toBeCloseTo(sum('2026-11-03', TRAINER), 9);
    expect(rows[0]).toMatchObject({ nodeInstanceId: NODE, cluster: 'prod', billingPeriod: '2026-11', currency: 'USD' });
    // The split is of the node's cost, never spend of its own: the month is the instance's line.
    const totals = await store.spend.totals({ period: { start: '2026-11-01', end: '2026-12-01' } }, 'team');
    expect(totals.reduce((s, t) => s + t.effective, 0)).toBeCloseTo(NODE_COST, 9);
  });

  it('the same file imported again replaces its split instead of adding to it; an export without split data leaves none', async () => {
    await store.importBatches([await readFocusFiles([curCsv(tmp.path('cur.csv'))], pullContext())]);
    const again = await store.kubeUsage.splitCosts({ start: '2026-11-01', end: '2026-12-01' });
    expect(again[0]!.splitCost).toBeCloseTo(sum('2026-11-02', TRAINER), 9);
    await store.importBatches([await readFocusFiles([curCsv(tmp.path('cur.csv'), false)], pullContext())]);
    expect(await store.kubeUsage.splitCosts({ start: '2026-11-01', end: '2026-12-01' })).toEqual([]);
  });

  // AWS's Data Exports guide: an instance-hour's amortised cost is its pods' split cost plus their
  // unused cost (its idle capacity spread over them); the net columns are the same after discounts.
  // burnrate reads the instance's lines before discounts, so a pod is its split cost, and the node
  // keeps the rest once, as its (unrequested GPUs): never the unused cost again, never the net split.
  it("moves each pod's split cost (before discounts, without the unused share) to its team; the node keeps the rest once", async () => {
    const file = tmp.path('net.csv');
    const header = [...HEADER, 'split_line_item_net_split_cost'];
    const NODE_LINE = 70;
    /** [resource, split cost, unused cost, net split cost] of each pod line. */
    const pods: [string, number, number, number][] = [
      [TRAINER, 30, 6, 21],
      [TRAINER, 3, 0.6, 2.1],
      [NOTEBOOK, 4.5, 0.9, 3.15],
    ];
    const row = (resource: string, cost: number, split: (string | number)[]) =>
      [
        '2026-11-01T00:00:00Z',
        '2026-12-01T00:00:00Z',
        '111111111111',
        '111122223333',
        'Usage',
        '2026-11-05T00:00:00Z',
        '2026-11-05T01:00:00Z',
        'AmazonEC2',
        resource,
        cost,
        'USD',
        ...split,
      ].join(',');
    writeFileSync(
      file,
      [
        header.join(','),
        row(NODE, NODE_LINE, ['', '', '', '']),
        ...pods.map(([resource, split, unused, net]) => row(resource, 0, [NODE, split, unused, net])),
      ].join('\n') + '\n',
    );
    const own = openStore(':memory:');
    try {
      await own.importBatches([await readFocusFiles([file], pullContext())]);
      const [trainer] = await own.kubeUsage.splitCosts({ start: '2026-11-05', end: '2026-11-06' });
      const splitOf = (pod: string) => pods.filter(([r]) => r === pod).reduce((s, [, split]) => s + split, 0);
      expect(trainer!.splitCost).toBeCloseTo(splitOf(TRAINER), 9);

      // burnrate's samples put both workloads on the node that day; the bill's split decides.
      const sample = (namespace: string, workload: string, team: string) => ({
        day: '2026-11-05',
        cluster: 'prod',
        node: 'ip-10-0-1-1',
        nodeInstanceId: NODE,
        nodeHourly: 70,
        namespace,
        workload: `prod/${namespace}/${workload}`,
        team,
        nodeHours: 0.5,
      });
      await own.kubeUsage.record(
        'prod',
        new Date('2026-11-05T01:00:00Z'),
        [sample('ml', 'Deployment/trainer', 'ml-research'), sample('research', 'StatefulSet/notebook', 'platform')],
        [],
      );
      const totals = await own.spend.totals({ period: { start: '2026-11-05', end: '2026-11-06' } }, 'team');
      const teamTotal = (team: string) => totals.filter((t) => t.key === team).reduce((s, t) => s + t.effective, 0);
      expect(teamTotal('ml-research')).toBeCloseTo(splitOf(TRAINER), 9);
      expect(teamTotal('platform')).toBeCloseTo(splitOf(NOTEBOOK), 9);
      // The node's own team keeps its line less the pods' split: the unused share stays there, once.
      const rest = totals.filter((t) => t.key !== 'ml-research' && t.key !== 'platform').reduce((s, t) => s + t.effective, 0);
      expect(rest).toBeCloseTo(NODE_LINE - splitOf(TRAINER) - splitOf(NOTEBOOK), 9);
    } finally {
      await own.close();
    }
  });
});
