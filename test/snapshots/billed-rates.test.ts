import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPriceCatalog } from '../../src/catalog/price-catalog.js';
import { runGpuCheck } from '../../src/jobs/gpu-check.js';
import { refreshSources } from '../../src/jobs/refresh-sources.js';
import { buildSources } from '../../src/providers/registry.js';
import { gpuDemo, T } from '../support/gpu-demo.js';
import { loadGpuSnapshot } from '../../src/snapshots/gpu-snapshot.js';
import { recommendationWindow } from '../../src/snapshots/gpu-windows.js';
import { workDir } from '../support/run-cli.js';

describe('idle GPUs priced from the bill', () => {
  it('values an idle instance at its billed rate (a committed node at its Savings Plan rate), said in its description; list price before the bill', async () => {
    const db = join(workDir(), 'burnrate.db');
    const { deps } = gpuDemo(() => {}, db);
    await runGpuCheck(deps);
    const before = await deps.store.gpuFindings.listOpen();
    expect(before.length).toBeGreaterThan(0);
    for (const f of before) expect(f.description).toContain('at list price');

    deps.sources = buildSources(deps.config).spend;
    await refreshSources(deps);
    await runGpuCheck(deps);
    const findings = await deps.store.gpuFindings.listOpen();
    // The independent figure: each instance's effective cost over its hours in the bill's last 14 days.
    const sql = new Database(db, { readonly: true });
    const rateOf = sql.prepare(
      `SELECT sum(effective) / sum(usage_hours) FROM spend_daily WHERE resource_id = ? AND day >= '2026-11-04' AND usage_hours > 0`,
    );
    for (const f of findings) {
      const rate = rateOf.pluck().get(f.instanceId) as number;
      expect(f.hourlyPrice, f.name ?? f.instanceId).toBeCloseTo(rate, 6);
      expect(f.description).toContain(`at its billed rate, $${rate.toFixed(2)}/h`);
      expect(f.perDay).toBeCloseTo(rate * 24, 1);
    }

    // An instance idle through the whole metrics window says how long the bill shows it running
    // without a stop before it, and what that cost: here, every day of the demo's history.
    const box = findings.find((f) => f.name === 'tmp-debug-box')!;
    const windowDay = new Date(Date.parse(T) - 24 * 3600_000).toISOString().slice(0, 10);
    const days = sql
      .prepare(
        `SELECT day, sum(usage_hours) AS hours, sum(effective) AS billed FROM spend_daily WHERE resource_id = ? AND day < ? GROUP BY day ORDER BY day DESC`,
      )
      .all(box.instanceId, windowDay) as { day: string; hours: number; billed: number }[];
    let whole = 0;
    while (whole < days.length && days[whole]!.hours >= 23.5) whole++;
    const billed = days.slice(0, whole).reduce((s, d) => s + d.billed, 0);
    expect(whole).toBeGreaterThan(30);
    expect(box.description).toContain(
      `(the bill shows it running every hour of the ${whole} days before, since ${days[whole - 1]!.day}: $${billed.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} billed)`,
    );

    // A pre-training node under the Savings Plan costs its amortised rate, well under its list price.
    const { instances } = await loadGpuSnapshot(deps, { window: recommendationWindow(deps, deps.clock()) });
    const node = instances.find((i) => i.name === 'llm-pretrain-node-1')!;
    const list = loadPriceCatalog().priceOf('aws', 'p5.48xlarge', 'us-east-1')!.onDemandHourly;
    expect(node.priceBasis).toBe('billed');
    expect(node.hourlyPrice).toBeCloseTo(rateOf.pluck().get(node.instanceId) as number, 6);
    expect(node.hourlyPrice).toBeLessThan(list * 0.7);
    sql.close();
  });
});
