import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createServeMetrics } from '../../src/http/metrics.js';
import { startMetricsListener } from '../../src/http/metrics-listener.js';
import type { HealthProbe } from '../../src/http/server.js';
import { testDeps } from '../support/deps.js';
import { grafanaPanelQueries } from './grafana-panels.js';
import { freePort } from '../support/free-port.js';

// A real Prometheus (Debian's `prometheus` package) scrapes /metrics: what it stores must carry
// its own `job` and `instance` target labels and no `exported_` label (which it adds when an
// exposed label collides with a target label). Skipped where the binary is not installed.

const PROMETHEUS = '/usr/bin/prometheus';
const HEALTH: HealthProbe = { alive: () => true, ready: async () => ({ ok: true, checks: {} }) };
const NO_DELIVERIES = { totals: { sent: 0, retried: 0, failed: 0 } } as Parameters<typeof createServeMetrics>[1];

let prometheus: ChildProcess | undefined;
let listener: Server | undefined;
const dir = mkdtempSync(join(tmpdir(), 'burnrate-prom-'));
afterAll(async () => {
  prometheus?.kill('SIGTERM');
  if (prometheus && prometheus.exitCode === null) await new Promise((resolve) => prometheus!.once('exit', resolve));
  await new Promise((resolve) => (listener ? listener.close(resolve) : resolve(null)));
  rmSync(dir, { recursive: true, force: true });
});

/** The series a PromQL instant query returns, as label sets. */
async function series(base: string, query: string): Promise<Record<string, string>[]> {
  const res = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(query)}`);
  const body = (await res.json()) as { data?: { result: { metric: Record<string, string> }[] } };
  return (body.data?.result ?? []).map((r) => r.metric);
}

describe('/metrics scraped by a real Prometheus', () => {
  it.skipIf(!existsSync(PROMETHEUS))(
    'stores every series under its own job and instance labels, none renamed exported_',
    async () => {
      const { deps } = testDeps({ teams: [{ id: 'vision' }], sources: [], metrics: { teamCosts: true } });
      const metrics = createServeMetrics(deps, NO_DELIVERIES);
      metrics.observeJob('budget check', 0.4, true);
      metrics.observeJob('gpu check', 1.2, false);
      listener = (await startMetricsListener(
        { host: '127.0.0.1', port: 0, portChosen: true, token: null },
        metrics.route,
        HEALTH,
        deps.log,
      ))!;
      const target = `127.0.0.1:${(listener.address() as AddressInfo).port}`;
      writeFileSync(
        join(dir, 'prometheus.yml'),
        `global: { scrape_interval: 1s }\nscrape_configs:\n  - job_name: burnrate\n    static_configs: [{ targets: ["${target}"] }]\n`,
      );
      const port = await freePort();
      prometheus = spawn(
        PROMETHEUS,
        [
          `--config.file=${join(dir, 'prometheus.yml')}`,
          `--storage.tsdb.path=${join(dir, 'data')}`,
          `--web.listen-address=127.0.0.1:${port}`,
        ],
        { stdio: 'ignore' },
      );
      const base = `http://127.0.0.1:${port}`;
      let stored: Record<string, string>[] = [];
      for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
        stored = await series(base, '{__name__=~"burnrate_.+|process_.+|nodejs_.+"}').catch(() => []);
        if (stored.some((s) => s.__name__ === 'burnrate_job_errors_total')) break;
      }
      expect(stored.length).toBeGreaterThan(20);
      expect(stored.flatMap((s) => Object.keys(s)).filter((label) => label.startsWith('exported_'))).toEqual([]);
      expect(new Set(stored.map((s) => `${s.job} ${s.instance}`))).toEqual(new Set([`burnrate ${target}`]));
      expect(stored.filter((s) => s.__name__ === 'burnrate_job_errors_total').map((s) => s.task)).toEqual(['gpu_check']);
      expect(
        stored
          .filter((s) => s.__name__ === 'burnrate_job_duration_seconds_count')
          .map((s) => s.task)
          .sort(),
      ).toEqual(['budget_check', 'gpu_check']);
      // The sample panels' queries are PromQL this Prometheus runs (the team is the panel's variable).
      for (const expr of grafanaPanelQueries()) {
        const res = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(expr.replaceAll('$team', 'vision'))}`);
        expect(`${expr}: ${((await res.json()) as { status: string }).status}`).toBe(`${expr}: success`);
      }
    },
    60_000,
  );
});
