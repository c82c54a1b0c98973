import { describe, expect, it } from 'vitest';
import { homeView } from '../../src/inbound/home-view.js';
import { runBudgetCheck } from '../../src/jobs/budget-check.js';
import { runGpuCheck } from '../../src/jobs/gpu-check.js';
import { refreshSources } from '../../src/jobs/refresh-sources.js';
import { runSweepCheck } from '../../src/jobs/sweep-check.js';
import { demoConfig } from '../../src/providers/demo/demo-config.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { buildSources } from '../../src/providers/registry.js';
import type { TableBlock } from '../../templates/message.js';
import { testDeps } from '../support/deps.js';
import { ADMIN } from '../support/demo-org.js';

describe('App Home', () => {
  it('counts every kind of open alert under "Alerts": budget, idle GPUs, runaway sweeps, anomalies', async () => {
    const { deps } = testDeps(demoConfig(), '2026-11-18T06:00:00Z');
    deps.sources = buildSources(deps.config).spend;
    deps.gpu = buildGpuDeps(deps.config)!;
    await refreshSources(deps);
    await runBudgetCheck(deps);
    await runGpuCheck(deps);
    await runSweepCheck(deps);

    // Counted here from the store's open findings of each kind, team by team.
    const open = [
      ...(await deps.store.findings.listOpen()),
      ...(await deps.store.gpuFindings.listOpen()),
      ...(await deps.store.sweepFindings.listOpen()),
      ...(await deps.store.anomalyFindings.listOpen()),
    ];
    const budgetOnly = await deps.store.findings.listOpen();
    const home = await homeView(deps, { userId: ADMIN, platform: 'slack' });
    const table = home.blocks.find((b): b is TableBlock => b.type === 'table' && b.columns.some((c) => c.label === 'Alerts'))!;
    const alertsColumn = table.columns.findIndex((c) => c.label === 'Alerts');
    let moreThanBudget = false;
    for (const row of table.rows) {
      const team = deps.config.teams.find((t) => (t.name ?? t.id) === row[0])!;
      const expected = open.filter((f) => f.team === team.id).length;
      expect(row[alertsColumn], team.id).toBe(String(expected));
      if (expected > budgetOnly.filter((f) => f.team === team.id).length) moreThanBudget = true;
    }
    // The demo has idle GPUs and a runaway sweep: some team counts more than its budget alerts.
    expect(moreThanBudget).toBe(true);
  });
});
