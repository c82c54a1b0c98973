import { describe, expect, it } from 'vitest';
import { anomalyCheck } from '../../src/checks/anomalies/definition.js';
import { runCheck } from '../../src/jobs/run-check.js';
import type { KubeUsageRow } from '../../src/domain/kube-usage.js';
import type { SpendRow } from '../../src/domain/spend.js';
import { anomalyDetails } from '../../templates/anomaly-alert.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { testDeps } from '../support/deps.js';
import { CAROL } from '../support/demo-org.js';
import { importRunawayBill, sweepRow } from '../support/runaway-bill.js';

// Why it moved, across the bill's columns: the team's usual spend is in one account and region
// (test/support/runaway-bill.ts: no account, no region), and a sweep runs away in another account,
// in us-west-2, on one usage type, as a FOCUS source keeping x_UsageType would import it.

const TEAM = { id: 'ml', name: 'ML', owners: [CAROL] };
const CONFIG = {
  teams: [TEAM],
  sources: [{ type: 'focus', paths: ['bills/*.parquet'], dimensions: ['x_UsageType'] }],
};

function runawayRow(day: string, amount: number, region: string): SpendRow {
  return {
    ...sweepRow(day, amount),
    subAccount: '222233334444',
    region,
    extensions: JSON.stringify({ x_UsageType: 'USW2-ml.p5.48xlarge' }),
  };
}

describe('what moved, by account, region and usage type', () => {
  it('names each dimension that tells the day apart, with amounts a plain sum of the rows gives', async () => {
    const { deps } = testDeps(CONFIG, '2026-11-10T09:00:00Z');
    // 4,000 in us-west-2 and 1,000 in eu-west-1 on the 9th: the region table has both, us-west-2 first.
    const runaway = [runawayRow('2026-11-08', 4200, 'us-west-2'), runawayRow('2026-11-09', 4000, 'us-west-2')];
    const second = { ...runawayRow('2026-11-09', 1000, 'eu-west-1'), resourceId: 'i-llm-sweep-18' };
    const rows = await importRunawayBill(deps, '2026-11-10', [...runaway, second]);

    const [finding] = (await runCheck(deps, anomalyCheck())).findings;
    expect(finding!.day).toBe('2026-11-09');
    const sumOf = (pick: (r: SpendRow) => boolean) =>
      rows.filter((r) => r.day === '2026-11-09' && pick(r)).reduce((s, r) => s + r.effective, 0);
    const drivers = (dimension: string) => finding!.drivers.filter((d) => d.dimension === dimension).map((d) => [d.key, d.amount, d.usual]);
    expect(drivers('region')).toEqual([
      ['us-west-2', sumOf((r) => r.region === 'us-west-2'), 0],
      ['eu-west-1', sumOf((r) => r.region === 'eu-west-1'), 0],
    ]);
    expect(drivers('account')).toEqual([['222233334444', sumOf((r) => r.subAccount === '222233334444'), 0]]);
    expect(drivers('x_UsageType')).toEqual([['USW2-ml.p5.48xlarge', sumOf((r) => r.extensions !== undefined && r.extensions !== null), 0]]);
    // The line of why names the further dimensions carrying most of the excess, after resource and service.
    const text = renderPlainText(anomalyDetails(finding!, 'ML'));
    expect(text).toMatch(/% from account 222233334444/);
    expect(text).toMatch(/% from region us-west-2/);
    expect(text).toMatch(/% from usage type USW2-ml\.p5\.48xlarge/);
    expect(text).not.toMatch(/from region eu-west-1/);
  });

  it('leaves out a dimension with one and the same value on the day and before', async () => {
    const { deps } = testDeps(CONFIG, '2026-11-10T09:00:00Z');
    // The bill carries no account or region anywhere: nothing to name there.
    await importRunawayBill(deps, '2026-11-10', [sweepRow('2026-11-08', 4200), sweepRow('2026-11-09', 5000)]);
    const [finding] = (await runCheck(deps, anomalyCheck())).findings;
    expect([...new Set(finding!.drivers.map((d) => d.dimension))]).toEqual(['service', 'resource']);
  });

  it('names the Kubernetes namespace and workload whose node moved, at its share of the node bill', async () => {
    const { deps } = testDeps(CONFIG, '2026-11-10T09:00:00Z');
    // A GPU node billed from the 8th, its hours all held by one sweep's Job.
    const NODE = 'i-gpu-node-2';
    const rows = await importRunawayBill(deps, '2026-11-10', [
      { ...sweepRow('2026-11-08', 4200), resourceId: NODE },
      { ...sweepRow('2026-11-09', 5000), resourceId: NODE },
    ]);
    const usage = (day: string): KubeUsageRow => ({
      day,
      cluster: 'prod',
      node: 'ip-10-0-2-2',
      nodeInstanceId: NODE,
      nodeHourly: 98.32,
      namespace: 'sweeps',
      workload: 'prod/sweeps/Job/llm-sweep-17',
      team: 'ml',
      nodeHours: 24,
    });
    await deps.store.kubeUsage.record('prod', new Date('2026-11-10T00:00:00Z'), [usage('2026-11-08'), usage('2026-11-09')], []);

    const [finding] = (await runCheck(deps, anomalyCheck())).findings;
    // Independent: what the bill charged the node on the 9th, all of it the sweep's.
    const nodeBill = rows.filter((r) => r.day === '2026-11-09' && r.resourceId === NODE).reduce((s, r) => s + r.effective, 0);
    const drivers = (dimension: string) => finding!.drivers.filter((d) => d.dimension === dimension).map((d) => [d.key, d.amount, d.usual]);
    expect(drivers('namespace')).toEqual([['sweeps', nodeBill, 0]]);
    expect(drivers('workload')).toEqual([['sweeps/Job/llm-sweep-17', nodeBill, 0]]);
    const text = renderPlainText(anomalyDetails(finding!, 'ML'));
    expect(text).toContain('% from workload sweeps/Job/llm-sweep-17');
  });
});
