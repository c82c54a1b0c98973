import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createServeMetrics } from '../../src/http/metrics.js';
import { startMetricsListener } from '../../src/http/metrics-listener.js';
import type { HealthProbe } from '../../src/http/server.js';
import { spendRow, testDeps } from '../support/deps.js';

// /metrics has a listener of its own, loopback by default, with an optional bearer token; the
// per-team money gauges (team names, spend, forecasts) appear only when burnrate.yml asks for them.

const HEALTH: HealthProbe = { alive: () => true, ready: async () => ({ ok: true, checks: {} }) };
const NO_DELIVERIES = { totals: { sent: 0, retried: 0, failed: 0 } } as Parameters<typeof createServeMetrics>[1];
const NOW = '2026-11-21T09:00:00Z';
const DAYS = {
  vision: [
    ['2026-11-02', 120.25],
    ['2026-11-15', 80.5],
    ['2026-10-31', 999],
  ],
} as const;

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A store with a few days of the vision team's spend; the listener on a free loopback port. */
async function listen(options: { teamCosts: boolean; token?: string }) {
  const { deps } = testDeps({ teams: [{ id: 'vision' }], sources: [], metrics: { teamCosts: options.teamCosts } }, NOW);
  const rows = DAYS.vision.map(([day, amount]) => spendRow('vision', day, amount));
  await deps.store.importBatches([{ scope: { source: 'test', billingPeriods: ['2026-10', '2026-11'] }, rows, dataThrough: null }]);
  const metrics = createServeMetrics(deps, NO_DELIVERIES);
  const settings = { host: '127.0.0.1', port: 0, portChosen: true, token: options.token ?? null };
  const server = (await startMetricsListener(settings, metrics.route, HEALTH, deps.log))!;
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
}

describe('the metrics listener', () => {
  it("answers burnrate's own health and no team's money unless asked", async () => {
    const res = await fetch(await listen({ teamCosts: false }));
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('burnrate_outbox_items{status="sent"} 0');
    expect(text).not.toContain('burnrate_team_');
    expect(text).not.toContain('vision');
  });

  it('answers each team’s month-to-date spend when metrics.teamCosts is on: the sum of its rows of this month', async () => {
    const text = await (await fetch(await listen({ teamCosts: true }))).text();
    const expected = DAYS.vision.filter(([day]) => day.startsWith('2026-11')).reduce((sum, [, amount]) => sum + amount, 0);
    const gauge = /^burnrate_team_spend_month_to_date\{team="vision",currency="USD"\} (\S+)$/m.exec(text)?.[1];
    expect(Number(gauge)).toBeCloseTo(expected, 2);
  });

  it('answers 401 without METRICS_TOKEN as a bearer token, or with another, and the figures with it', async () => {
    const url = await listen({ teamCosts: false, token: 's3cret-scrape-token' });
    const none = await fetch(url);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toContain('Bearer');
    expect(await none.text()).not.toContain('burnrate_outbox');
    expect((await fetch(url, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: 's3cret-scrape-token' } })).status).toBe(401);
    const good = await fetch(url, { headers: { authorization: 'Bearer s3cret-scrape-token' } });
    expect(good.status).toBe(200);
    expect(await good.text()).toContain('burnrate_outbox_items');
  });

  it('refuses a METRICS_PORT that is taken, and goes on without metrics when only the default is', async () => {
    const first = await listen({ teamCosts: false });
    const port = Number(new URL(first).port);
    const { deps } = testDeps({ sources: [] }, NOW);
    const route = createServeMetrics(deps, NO_DELIVERIES).route;
    const settings = { host: '127.0.0.1', port, token: null };
    await expect(startMetricsListener({ ...settings, portChosen: true }, route, HEALTH, deps.log)).rejects.toThrow(
      `METRICS_PORT ${port} on 127.0.0.1 is already in use`,
    );
    expect(await startMetricsListener({ ...settings, portChosen: false }, route, HEALTH, deps.log)).toBeNull();
  });
});
