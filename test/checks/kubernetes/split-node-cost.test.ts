import { describe, expect, it } from 'vitest';
import { splitNodeCosts } from '../../../src/checks/kubernetes/split-node-cost.js';
import { usageRows } from '../../../src/checks/kubernetes/usage-rows.js';
import type { KubeUsageRow } from '../../../src/domain/kube-usage.js';
import type { ClusterInventory, GpuNode, GpuPod } from '../../../src/domain/kubernetes.js';

const node = (name: string, gpus: number, mig: Record<string, number> = {}): GpuNode => ({
  cluster: 'c',
  name,
  instanceType: 'g5.12xlarge',
  capacityType: 'on-demand',
  nodePool: null,
  instanceId: `i-${name}`,
  provider: 'aws',
  zone: 'us-east-1a',
  gpus,
  migSlices: mig,
  labels: {},
  createdAt: null,
});
const pod = (namespace: string, name: string, nodeName: string, gpus: number): GpuPod => ({
  cluster: 'c',
  namespace,
  name: `${name}-0`,
  node: nodeName,
  gpus,
  workload: { cluster: 'c', kind: 'Deployment', namespace, name },
  labels: {},
  annotations: {},
  startedAt: null,
});
const inventory = (nodes: GpuNode[], pods: GpuPod[]): ClusterInventory => ({
  cluster: 'c',
  nodes,
  pods,
  namespaces: [],
  workloadAnnotations: new Map(),
});
const T = Date.parse('2026-11-18T22:00:00Z') / 1000;

describe('usageRows', () => {
  it("gives each workload its GPUs' share of the node, the rest unrequested, split at UTC midnight", () => {
    const rows = usageRows({
      inventory: inventory([node('a', 4)], [pod('vision', 'serve', 'a', 2), pod('research', 'nb', 'a', 1)]),
      from: T,
      to: T + 3 * 3600, // 22:00 to 01:00: two hours on the 18th, one on the 19th
      nodeHourly: () => 5.672,
      teamOf: (ns) => (ns === 'vision' ? 'vision' : null),
    });
    const of = (day: string, workload: string) => rows.find((r) => r.day === day && r.workload === workload)!.nodeHours;
    expect(of('2026-11-18', 'c/vision/Deployment/serve')).toBeCloseTo(2 * (2 / 4), 12);
    expect(of('2026-11-18', 'c/research/Deployment/nb')).toBeCloseTo(2 * (1 / 4), 12);
    expect(of('2026-11-18', '')).toBeCloseTo(2 * (1 / 4), 12);
    expect(of('2026-11-19', 'c/vision/Deployment/serve')).toBeCloseTo(1 * (2 / 4), 12);
    expect(rows.find((r) => r.workload === 'c/vision/Deployment/serve')!.team).toBe('vision');
    // A node's rows add up to the hours it was seen.
    expect(rows.filter((r) => r.day === '2026-11-18').reduce((s, r) => s + r.nodeHours, 0)).toBeCloseTo(2, 12);
  });

  it('counts MIG slices at their share of a GPU', () => {
    const [sweep, rest] = usageRows({
      inventory: inventory([node('m', 0, { 'nvidia.com/mig-3g.20gb': 2, 'nvidia.com/mig-1g.5gb': 1 })], [pod('ml', 'sweep', 'm', 3 / 7)]),
      from: T,
      to: T + 3600,
      nodeHourly: () => 3,
      teamOf: () => null,
    });
    // The node offers 2 × 3/7 + 1/7 = 1 GPU; the sweep holds 3/7 of it.
    expect(sweep!.nodeHours).toBeCloseTo(3 / 7, 12);
    expect(rest!.nodeHours).toBeCloseTo(4 / 7, 12);
  });
});

describe('splitNodeCosts', () => {
  const row = (workload: string, nodeHours: number, extra: Partial<KubeUsageRow> = {}): KubeUsageRow => ({
    day: '2026-11-18',
    cluster: 'c',
    node: 'a',
    nodeInstanceId: 'i-a',
    nodeHourly: 5.672,
    namespace: workload ? workload.split('/')[1]! : '',
    workload,
    team: null,
    nodeHours,
    ...extra,
  });

  it("splits the bill's charge for the node-day by node-hours, adding up to it to the cent", () => {
    // $10.00 over three equal holders: 3.34 + 3.33 + 3.33.
    const { lines, total } = splitNodeCosts(
      [row('c/x/Deployment/a', 8), row('c/y/Deployment/b', 8), row('c/z/Deployment/c', 8)],
      [{ nodeInstanceId: 'i-a', day: '2026-11-18', cost: 10, hours: 24 }],
    );
    expect(lines.map((l) => l.cost)).toEqual([3.34, 3.33, 3.33]);
    expect(total).toBe(10);
    expect(lines.reduce((s, l) => s + Math.round(l.cost * 100), 0)).toBe(1000);
  });

  it('prices a node-day the bill does not cover at list price over the hours seen', () => {
    const { lines, total } = splitNodeCosts([row('c/x/Deployment/a', 1.5), row('', 0.5)], []);
    // 2 hours at $5.672: $11.344 → $11.34. Three quarters is $8.508, a quarter $2.836: rounded
    // down to 8.50 and 2.83, the cent left goes to the larger remainder (0.8 of a cent, the workload's).
    expect(total).toBe(11.34);
    expect(lines).toEqual([
      { cluster: 'c', namespace: 'x', workload: 'c/x/Deployment/a', team: null, cost: 8.51, basis: 'estimate' },
      { cluster: 'c', namespace: '(unrequested GPUs)', workload: '(unrequested GPUs)', team: null, cost: 2.83, basis: 'estimate' },
    ]);
  });

  it('rounds once over the month, so the workloads add up to the node bills to the cent', () => {
    // Two nodes for 30 days, each node-day billed a fraction of a cent off a whole cent
    // ($12.345 and $7.3333), held by three workloads in unequal parts. Rounding each node-day
    // before splitting would drift by up to half a cent a node-day (up to $0.30 over the month).
    const usage: KubeUsageRow[] = [];
    const billed = [];
    const exact = new Map<string, number>();
    for (let d = 1; d <= 30; d++) {
      const day = `2026-11-${String(d).padStart(2, '0')}`;
      for (const [node, cost, holders] of [
        [
          'a',
          12.345,
          [
            ['c/x/Deployment/a', 10],
            ['c/y/Deployment/b', 7],
            ['c/z/Deployment/c', 7],
          ],
        ],
        [
          'b',
          7.3333,
          [
            ['c/x/Deployment/a', 5],
            ['c/z/Deployment/c', 19],
          ],
        ],
      ] as const) {
        billed.push({ nodeInstanceId: `i-${node}`, day, cost, hours: 24 });
        for (const [workload, hours] of holders) {
          usage.push(row(workload, hours, { day, node, nodeInstanceId: `i-${node}` }));
          exact.set(workload, (exact.get(workload) ?? 0) + (cost * hours) / 24);
        }
      }
    }
    const { lines, total } = splitNodeCosts(usage, billed);
    // The node bills, summed as a plain sum and rounded once.
    const bills = billed.reduce((s, b) => s + b.cost, 0);
    expect(Math.round(total * 100)).toBe(Math.round(bills * 100));
    expect(lines.reduce((s, l) => s + Math.round(l.cost * 100), 0)).toBe(Math.round(bills * 100));
    // Every workload within a cent of its exact share.
    for (const l of lines) expect(Math.abs(l.cost - exact.get(l.workload)!)).toBeLessThan(0.01);
  });

  it('leaves the hours the bill counted but no sample saw to nobody', () => {
    const { lines, total } = splitNodeCosts(
      [row('c/x/Deployment/a', 6)],
      [{ nodeInstanceId: 'i-a', day: '2026-11-18', cost: 24, hours: 24 }],
    );
    expect(total).toBe(24);
    expect(lines.map((l) => [l.workload, l.cost])).toEqual([
      ['(not observed)', 18],
      ['c/x/Deployment/a', 6],
    ]);
  });
});
