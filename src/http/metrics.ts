import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Deps } from '../deps.js';
import type { DeliveryReport } from '../outbox/deliver-outbox.js';
import type { OutboxSummary } from '../store/outbox-records.js';
import type { Route } from './server.js';
import { registerProcessMetrics } from './process-metrics.js';
import { registerTeamMetrics } from './team-metrics.js';

export interface ServeMetrics {
  /** `GET /metrics` in the Prometheus text format. */
  route: Route;
  /** Records one run of a job (scheduled or at start): its duration and whether it failed. */
  observeJob(job: string, seconds: number, ok: boolean): void;
}

/**
 * The tasks whose first success makes the idle-GPU cost gauges a figure rather than a guess: the
 * scheduled job, and its step as serve's first run names it (steps there, since jobs share them).
 */
export const IDLE_CHECK_TASKS: ReadonlySet<string> = new Set(['gpu_check', 'idle_gpu_check']);

/**
 * A job's id as a label value: stable snake_case ("budget check" -> budget_check), the shape
 * Prometheus label values usually take, so queries need no quoting of spaces or apostrophes.
 */
export function taskLabel(jobId: string): string {
  return jobId
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/**
 * burnrate's own health for Prometheus, so operators alert on the alerting: the outbox by status
 * (read from the store at each scrape, so every replica reports the shared outbox), sends of this
 * process, source ages and failures, job durations and errors; each team's cost gauges when
 * metrics.teamCosts is on. One registry per serve: nothing global.
 */
export function createServeMetrics(deps: Deps, delivery: { totals: DeliveryReport }): ServeMetrics {
  const registry = new Registry();
  registerProcessMetrics(registry);
  // Tasks that have succeeded at least once in this process: a gauge whose figure a task computes
  // stays absent until then, rather than reading 0 (which would say "nothing idle").
  const succeeded = new Set<string>();
  // Team names and money only when burnrate.yml asks for them (metrics.teamCosts).
  const teams = deps.config.metrics.teamCosts
    ? registerTeamMetrics(registry, deps, { idleChecked: () => [...IDLE_CHECK_TASKS].some((task) => succeeded.has(task)) })
    : null;
  // Read once per scrape, before the registry collects: the outbox gauges share it.
  let outbox: OutboxSummary | null = null;
  new Gauge({
    name: 'burnrate_outbox_items',
    help: 'Outbox items by status: pending (failing: pending after a failed attempt), sending, sent, failed',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      const s = outbox!;
      for (const status of ['pending', 'failing', 'sending', 'sent', 'failed'] as const) this.set({ status }, s[status]);
    },
  });
  new Gauge({
    name: 'burnrate_outbox_suspected_duplicates',
    help: 'Messages posted again after an attempt that may have reached the chat platform, where it offers no way to check',
    registers: [registry],
    async collect() {
      this.set(outbox!.suspectedDuplicates);
    },
  });
  new Gauge({
    name: 'burnrate_outbox_oldest_pending_seconds',
    help: 'Age of the oldest message still waiting for delivery (0 when none waits)',
    registers: [registry],
    async collect() {
      const oldest = outbox!.oldestPendingAt;
      this.set(oldest ? Math.max(0, (deps.clock().getTime() - Date.parse(oldest)) / 1000) : 0);
    },
  });
  new Counter({
    name: 'burnrate_deliveries_total',
    help: 'Delivery attempts by this process since it started, by outcome',
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ outcome: 'sent' }, delivery.totals.sent);
      this.inc({ outcome: 'retried' }, delivery.totals.retried);
      this.inc({ outcome: 'failed' }, delivery.totals.failed);
    },
  });
  new Gauge({
    name: 'burnrate_source_age_seconds',
    help: 'Seconds since each source last refreshed successfully',
    labelNames: ['source'],
    registers: [registry],
    async collect() {
      this.reset();
      const now = deps.clock().getTime();
      for (const f of await deps.store.freshness.list())
        this.set({ source: f.source }, Math.max(0, (now - Date.parse(f.refreshedAt)) / 1000));
    },
  });
  new Gauge({
    name: 'burnrate_source_failing',
    help: '1 while a source is failing (its data is stale), 0 once it refreshed again',
    labelNames: ['source'],
    registers: [registry],
    async collect() {
      this.reset();
      const failing = new Set((await deps.store.freshness.failures()).map((f) => f.source));
      for (const f of await deps.store.freshness.list()) this.set({ source: f.source }, failing.has(f.source) ? 1 : 0);
      for (const source of failing) this.set({ source }, 1);
    },
  });
  // The label is `task`, not `job`: Prometheus gives every series the scrape's own `job` (and
  // `instance`) target labels and would rename an exposed one to `exported_job`.
  const durations = new Histogram({
    name: 'burnrate_job_duration_seconds',
    help: 'Duration of each job run, by task (the job, in snake_case)',
    labelNames: ['task'],
    buckets: [0.1, 0.5, 1, 5, 15, 60, 300],
    registers: [registry],
  });
  const errors = new Counter({
    name: 'burnrate_job_errors_total',
    help: 'Job runs that failed, by task (the job, in snake_case)',
    labelNames: ['task'],
    registers: [registry],
  });

  return {
    route: async (_req, res) => {
      try {
        [outbox] = await Promise.all([deps.store.outbox.summary(), teams?.refresh()]);
        const text = await registry.metrics();
        res.writeHead(200, { 'content-type': registry.contentType });
        res.end(text);
      } catch (error) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`metrics unavailable: ${(error as Error).message}\n`);
      }
    },
    observeJob(job, seconds, ok) {
      const task = taskLabel(job);
      durations.observe({ task }, seconds);
      if (ok) succeeded.add(task);
      else errors.inc({ task });
    },
  };
}
