import { describe, expect, it } from 'vitest';
import { spendReport } from '../../../commands/spend.js';
import { deliverOutbox } from '../../../src/outbox/deliver-outbox.js';
import { runGpuCheck } from '../../../src/jobs/gpu-check.js';
import { sampleKubeUsage } from '../../../src/jobs/kube-usage.js';
import { loadWasteDiagnosis } from '../../../src/snapshots/waste-snapshot.js';
import { demoConfig } from '../../../src/providers/demo/demo-config.js';
import { buildGpuDeps } from '../../../src/providers/gpu-registry.js';
import { renderPlainText } from '../../../templates/render/plain-text.js';
import { testDeps } from '../../support/deps.js';
import { findingOf, press, T } from '../../support/gpu-demo.js';
import { DAN } from '../../support/demo-org.js';
const EVAL = 'llm/eval-server';

function clusterDemo() {
  const config = demoConfig({ cluster: true });
  config.actions.enabled = true;
  const t = testDeps(config, T);
  t.deps.gpu = buildGpuDeps(t.deps.config)!;
  return t;
}

describe('the demo Kubernetes cluster', () => {
  it('alerts idle workloads (the eval server, notebooks overnight) with Stop, Resume and Keep', async () => {
    const { deps, chat } = clusterDemo();
    const result = await runGpuCheck(deps);
    const workloads = result.findings.filter((f) => f.instanceId.startsWith('k8s:')).map((f) => `${f.team} ${f.name}`);
    // Wednesday 06:00 UTC: the notebooks have been idle since 17:00; the eval server always.
    expect(workloads.sort()).toEqual([
      'llm-training llm/carol-nb',
      'llm-training llm/eval-server',
      'vision cv/grace-nb',
      'vision cv/heidi-nb',
    ]);
    await deliverOutbox(deps);
    const llm = chat.posted.find((p) => p.address === '#C0DEMOLLMTR' || p.message.summary.startsWith('LLM Training'))!;
    expect(renderPlainText(llm.message)).toMatch(/llm\/eval-server \(Deployment, 2 GPUs on p4d\.24xlarge\): idle/);

    const stopped = await press(deps, DAN, 'instance.stop', await findingOf(deps, EVAL));
    expect(renderPlainText(stopped.updates[0]!)).toContain(`Stopped by ${DAN}`);
    expect((await deps.gpu!.inventory()).instances.some((i) => i.name === EVAL)).toBe(false);
    const resumed = await press(deps, DAN, 'workload.resume', await findingOf(deps, EVAL));
    expect(renderPlainText(resumed.updates[0]!)).toContain(`resumed by ${DAN}`);
    expect((await deps.gpu!.inventory()).instances.some((i) => i.name === EVAL)).toBe(true);

    await press(deps, 'U0DEMOGRACE', 'instance.keep', await findingOf(deps, 'cv/grace-nb'), { for: '4h' });
    const again = await runGpuCheck(deps);
    expect(again.kept.map((f) => f.name)).toContain('cv/grace-nb');
  });

  it('shows cost by namespace over the demo days from the first sample, and the static A100 pool', async () => {
    const { deps } = clusterDemo();
    await sampleKubeUsage(deps);
    const report = await spendReport(deps, { period: { start: '2026-11-01', end: '2026-11-18' }, by: 'namespace' });
    const keys = report.rows.map((r) => r.key);
    expect(keys).toEqual(expect.arrayContaining(['llm', 'research', 'serving', 'cv', '(unrequested GPUs)']));
    // 17 whole days of three on-demand nodes at list price: the lines add up to them.
    expect(report.total.effective).toBeGreaterThan(0);
    expect(Math.round(report.rows.reduce((s, r) => s + r.effective, 0) * 100)).toBe(Math.round(report.total.effective * 100));

    const diagnosis = await loadWasteDiagnosis(deps, { start: '2026-11-01', end: '2026-11-18' });
    expect(diagnosis.staticCapacity.map((p) => [p.pool, p.minNodes, p.setting.slice(0, 30)])).toEqual([
      ['a100-static', 1, 'EKS node group a100-static: se'],
    ]);
  });
});
