import { afterAll, describe, expect, it } from 'vitest';
import { readFocusFiles } from '../../../src/providers/focus/read-focus.js';
import { pullContext, tempDir, writeFocusCsv } from './helpers.js';

// A FOCUS 1.3 file: ServiceProviderName and HostProviderName instead of ProviderName, and a
// Kubernetes node whose cost the provider split over the pods that ran on it (data generator-
// calculated split cost allocation: AllocatedResourceId, AllocatedResourceName, AllocatedTags).
// The node is tagged for the platform team; its pods for the teams that ran them.

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const COLUMNS = [
  'BilledCost',
  'EffectiveCost',
  'BillingCurrency',
  'BillingPeriodStart',
  'BillingPeriodEnd',
  'ChargePeriodStart',
  'ChargePeriodEnd',
  'ChargeCategory',
  'ServiceName',
  'ServiceProviderName',
  'HostProviderName',
  'BillingAccountId',
  'ResourceId',
  'ResourceName',
  'Tags',
  'AllocatedMethodId',
  'AllocatedResourceId',
  'AllocatedResourceName',
  'AllocatedTags',
] as const;
type Line = Partial<Record<(typeof COLUMNS)[number], string>>;

const base: Line = {
  BillingCurrency: 'USD',
  BillingPeriodStart: '2026-11-01T00:00:00Z',
  BillingPeriodEnd: '2026-12-01T00:00:00Z',
  ChargePeriodStart: '2026-11-10T00:00:00Z',
  ChargePeriodEnd: '2026-11-11T00:00:00Z',
  ChargeCategory: 'Usage',
  ServiceName: 'Amazon Elastic Kubernetes Service',
  ServiceProviderName: 'AWS',
  BillingAccountId: '111',
  ResourceId: 'i-0node',
  ResourceName: 'gpu-node-1',
  Tags: '{"team":"platform"}',
};
const split = (cost: string, pod: string, team: string): Line => ({
  ...base,
  BilledCost: cost,
  EffectiveCost: cost,
  AllocatedMethodId: 'eks-split-cost-allocation',
  AllocatedResourceId: `arn:aws:eks:us-east-1:111:pod/train/${pod}`,
  AllocatedResourceName: pod,
  AllocatedTags: `{"k8s/namespace":"${team}","team":"${team}"}`,
});
const LINES: Line[] = [
  // 100.00 of node time: 60.00 to a research pod, 25.00 to a vision pod, 15.00 unused (not split).
  split('60.00', 'trainer-0', 'ml-research'),
  split('25.00', 'detector-3', 'vision'),
  { ...base, BilledCost: '15.00', EffectiveCost: '15.00' },
  // A marketplace service sold by a vendor and hosted on AWS.
  {
    ...base,
    BilledCost: '9.00',
    EffectiveCost: '9.00',
    ServiceName: 'Vector DB',
    ServiceProviderName: 'Acme',
    HostProviderName: 'AWS',
    ResourceId: 'acme-7',
    ResourceName: '',
    Tags: '{"team":"ml-research"}',
  },
];

function fileOf(lines: readonly Line[]): string {
  return writeFocusCsv(tmp.path('focus-1.3.csv'), [...lines], COLUMNS);
}

describe('FOCUS 1.3 columns', () => {
  it("gives a split charge to the workload's team and names the workload; the rest of the node stays with the node's tags", async () => {
    const { rows } = await readFocusFiles([fileOf(LINES)], pullContext(['team']));
    const costOf = (team: string) => rows.filter((r) => r.team === team).reduce((t, r) => t + r.effective, 0);
    // By hand: research 60 (pod) + 9 (marketplace); vision 25; the unsplit 15 is the node's (platform, no such team).
    expect(costOf('ml-research')).toBeCloseTo(69, 9);
    expect(costOf('vision')).toBeCloseTo(25, 9);
    const node = rows.filter((r) => r.resourceId === 'i-0node');
    expect(node.map((r) => [r.ownerTag, r.effective, r.resourceName])).toEqual([['platform', 15, 'gpu-node-1']]);
    const pod = rows.find((r) => r.resourceId === 'arn:aws:eks:us-east-1:111:pod/train/trainer-0');
    expect(pod).toMatchObject({ resourceName: 'trainer-0', ownerTag: 'ml-research', effective: 60 });
    // The whole bill is there: nothing lost or doubled by the split.
    expect(rows.reduce((t, r) => t + r.effective, 0)).toBeCloseTo(109, 9);
  });

  it('reads ServiceProviderName as the provider and keeps HostProviderName', async () => {
    const { rows } = await readFocusFiles([fileOf(LINES)], pullContext(['team']));
    const vendor = rows.find((r) => r.service === 'Vector DB');
    expect(vendor).toMatchObject({ provider: 'Acme', hostProvider: 'AWS' });
    expect(rows.find((r) => r.resourceId === 'i-0node')).toMatchObject({ provider: 'AWS', hostProvider: null });
  });
});
