import { describe, expect, it } from 'vitest';
import { runFirstChecks } from '../../src/cli/serve-first-run.js';
import { createServeMetrics } from '../../src/http/metrics.js';
import { jobTable, runJob } from '../../src/jobs/job-table.js';
import { guarded } from '../../src/scheduler.js';
import { spendRow } from '../support/deps.js';
import { gpuDemo } from '../support/gpu-demo.js';
import { scrape } from './scrape-metrics.js';

// The idle-GPU cost gauge is absent until the idle-GPU check has run, whether serve's first run
// (which times each step under its own name) or the schedule (which times the job) ran it: a 0
// before then would tell a dashboard "nothing idle" when nobody has looked.

/** The demo organisation on real parts with a day of each team's spend (the team gauges wait for a first import). */
async function demoWithSpend() {
  const { deps } = gpuDemo((config) => (config.metrics.teamCosts = true));
  const rows = deps.config.teams.map((t) => spendRow(t.id, '2026-11-17', 10));
  await deps.store.importBatches([{ scope: { source: 'test', billingPeriods: ['2026-11'] }, rows, dataThrough: null }]);
  return deps;
}

const NO_DELIVERIES = { totals: { sent: 0, retried: 0, failed: 0 } } as Parameters<typeof createServeMetrics>[1];
const idleGauges = (text: string) =>
  Object.fromEntries(
    [...text.matchAll(/^burnrate_team_idle_gpu_cost_per_day\{team="([^"]+)",currency="\w+"\} (\S+)$/gm)].map((m) => [m[1], Number(m[2])]),
  );

describe("each team's idle-GPU cost on /metrics", () => {
  it("appears once serve's first run has run the idle-GPU check, with the idle notebooks' cost", async () => {
    const deps = await demoWithSpend();
    const metrics = createServeMetrics(deps, NO_DELIVERIES);
    expect(idleGauges(await scrape(metrics.route))).toEqual({});
    await runFirstChecks(deps, jobTable(deps), () => {}, metrics.observeJob);
    const gauges = idleGauges(await scrape(metrics.route));
    expect(Object.keys(gauges).sort()).toEqual(deps.config.teams.map((t) => t.id).sort());
    // ml-research's two notebooks are idle at the demo's hour (test/support/gpu-demo.ts).
    expect(gauges['ml-research']).toBeGreaterThan(0);
  });

  it('appears once a scheduled run of the GPU check job has succeeded', async () => {
    const deps = await demoWithSpend();
    const metrics = createServeMetrics(deps, NO_DELIVERIES);
    const job = jobTable(deps).find((j) => j.id === 'gpu check')!;
    await guarded(
      deps,
      job.id,
      () =>
        runJob(
          job,
          deps.config.teams.map((t) => t.id),
        ),
      metrics.observeJob,
    );
    expect(Object.keys(idleGauges(await scrape(metrics.route))).sort()).toEqual(deps.config.teams.map((t) => t.id).sort());
  });
});
