import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createServeMetrics, taskLabel } from '../../src/http/metrics.js';
import { spendRow, testDeps } from '../support/deps.js';
import { grafanaPanelQueries } from './grafana-panels.js';
import { scrape } from './scrape-metrics.js';

// /metrics as operators' tools expect it: no label a scrape target already carries, the usual
// process and Node.js metrics, a build info series, and no 0 standing in for a figure not yet known.

const NO_DELIVERIES = { totals: { sent: 0, retried: 0, failed: 0 } } as Parameters<typeof createServeMetrics>[1];
const PROMTOOL = '/usr/bin/promtool';

/** serve's metrics over a store holding `spend` (a day of the vision team's, by default), at the test clock's hour. */
async function serveMetrics(teamCosts = false, spend = [spendRow('vision', '2026-11-20', 42.5)]) {
  const { deps, setNow } = testDeps({ teams: [{ id: 'vision' }], sources: [], metrics: { teamCosts } });
  if (spend.length > 0)
    await deps.store.importBatches([{ scope: { source: 'test', billingPeriods: ['2026-11'] }, rows: spend, dataThrough: null }]);
  return { ...createServeMetrics(deps, NO_DELIVERIES), deps, setNow };
}

/** Every label name of every sample line of an exposition. */
function labelNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n').filter((l) => l && !l.startsWith('#')))
    for (const [, name] of (/\{(.*)\}/.exec(line)?.[1] ?? '').matchAll(/(\w+)="/g)) names.add(name!);
  return names;
}

describe('/metrics by the conventions', () => {
  it('names the job of a run in a `task` label with a snake_case value, never `job` or `instance`', async () => {
    const metrics = await serveMetrics();
    metrics.observeJob('budget check', 0.2, true);
    metrics.observeJob('budget check', 0.3, false);
    metrics.observeJob('organisation digest', 1.5, true);
    const text = await scrape(metrics.route);
    expect(text).toMatch(/^burnrate_job_duration_seconds_count\{task="budget_check"\} 2$/m);
    expect(text).toMatch(/^burnrate_job_duration_seconds_count\{task="organisation_digest"\} 1$/m);
    expect(text).toMatch(/^burnrate_job_errors_total\{task="budget_check"\} 1$/m);
    const labels = labelNames(text);
    expect(labels.has('task')).toBe(true);
    expect(labels.has('job')).toBe(false);
    expect(labels.has('instance')).toBe(false);
  });

  it('turns any job name into a stable snake_case task', () => {
    expect(
      ['budget check', 'gpu check', "last month's review", 'idle-GPU check', ' Kubernetes usage ', 'outbox delivery'].map(taskLabel),
    ).toEqual(['budget_check', 'gpu_check', 'last_months_review', 'idle_gpu_check', 'kubernetes_usage', 'outbox_delivery']);
  });

  it("exposes the process's and Node.js's default metrics and burnrate's version", async () => {
    const text = await scrape((await serveMetrics()).route);
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'process_start_time_seconds',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
    ])
      expect(text).toMatch(new RegExp(`^${name} \\S+$`, 'm'));
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(text).toContain(`burnrate_build_info{version="${version}",node_version="${process.versions.node}"} 1`);
  });

  it('shows no team gauge before the first import: no spend known is not a spend of 0', async () => {
    const metrics = await serveMetrics(true, []);
    expect(await scrape(metrics.route)).not.toMatch(/^burnrate_team_/m);
    await metrics.deps.store.importBatches([
      { scope: { source: 'test', billingPeriods: ['2026-11'] }, rows: [spendRow('vision', '2026-11-20', 42.5)], dataThrough: null },
    ]);
    // The team figures are read at most once a minute.
    metrics.setNow('2026-11-21T09:01:01Z');
    expect(await scrape(metrics.route)).toMatch(/^burnrate_team_spend_month_to_date\{team="vision",currency="USD"\} 42.5$/m);
  });

  it("leaves each team's idle-GPU cost out until the idle-GPU check has succeeded, then shows it (0 with nothing idle)", async () => {
    const metrics = await serveMetrics(true);
    const before = await scrape(metrics.route);
    expect(before).toContain('burnrate_team_spend_month_to_date{team="vision"');
    expect(before).not.toMatch(/^burnrate_team_idle_gpu_cost_per_day\{/m);
    metrics.observeJob('gpu check', 2, false);
    expect(await scrape(metrics.route)).not.toMatch(/^burnrate_team_idle_gpu_cost_per_day\{/m);
    metrics.observeJob('gpu check', 2, true);
    expect(await scrape(metrics.route)).toMatch(/^burnrate_team_idle_gpu_cost_per_day\{team="vision",currency="USD"\} 0$/m);
  });

  it('exposes every metric the sample Grafana panels query', async () => {
    const metrics = await serveMetrics(true);
    const declared = new Set([...(await scrape(metrics.route)).matchAll(/^# TYPE (\w+) /gm)].map((m) => m[1]));
    for (const expr of grafanaPanelQueries())
      for (const [name] of expr.matchAll(/\bburnrate_\w+/g)) expect(declared).toContain(name.replace(/_(bucket|count|sum)$/, ''));
  });

  it.skipIf(!existsSync(PROMTOOL))(
    'passes `promtool check metrics`, but for three names of prom-client that dashboards query',
    async () => {
      const metrics = await serveMetrics(true);
      metrics.observeJob('gpu check', 2, true);
      const result = spawnSync(PROMTOOL, ['check', 'metrics'], { input: await scrape(metrics.route), encoding: 'utf8' });
      // prom-client's default gauges of live handles, requests and resources end in _total; the
      // common Node.js dashboards query them by these names, so they stay as the library names them.
      const findings = (result.stdout + result.stderr).split('\n').filter(Boolean);
      expect(findings).toEqual(
        ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'].map(
          (name) => `${name} non-counter metrics should not have "_total" suffix`,
        ),
      );
    },
  );
});
