import { describe, expect, it } from 'vitest';
import { homeView } from '../../src/inbound/home-view.js';
import { runBudgetCheck } from '../../src/jobs/budget-check.js';
import { runGpuCheck } from '../../src/jobs/gpu-check.js';
import { refreshSources } from '../../src/jobs/refresh-sources.js';
import { runSweepCheck } from '../../src/jobs/sweep-check.js';
import { demoConfig } from '../../src/providers/demo/demo-config.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { buildSources } from '../../src/providers/registry.js';
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
    // Each team is its name over label–value pairs (a table's narrow columns broke names on a wide screen).
    let moreThanBudget = false;
    let teams = 0;
    home.blocks.forEach((block, i) => {
      const facts = home.blocks[i + 1];
      if (block.type !== 'text' || facts?.type !== 'facts' || !facts.facts.some((f) => f.label === 'Alerts')) return;
      const team = deps.config.teams.find((t) => `**${t.name ?? t.id}**` === block.text)!;
      const expected = open.filter((f) => f.team === team.id).length;
      expect(facts.facts.find((f) => f.label === 'Alerts')!.value, team.id).toBe(String(expected));
      if (expected > budgetOnly.filter((f) => f.team === team.id).length) moreThanBudget = true;
      teams += 1;
    });
    expect(teams).toBeGreaterThan(0);
    // The demo has idle GPUs and a runaway sweep: some team counts more than its budget alerts.
    expect(moreThanBudget).toBe(true);
  });
});
