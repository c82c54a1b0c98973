import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { refreshSources } from '../../src/jobs/refresh-sources.js';
import { buildSources } from '../../src/providers/registry.js';
import { loadGpuSnapshot } from '../../src/snapshots/gpu-snapshot.js';
import { recommendationWindow } from '../../src/snapshots/gpu-windows.js';
import { gpuDemo } from '../support/gpu-demo.js';
import { workDir } from '../support/run-cli.js';

// The demo's pre-training nodes 1 and 2 run under an EC2 Instance Savings Plan (its amortised rate
// on the bill's rows, with the plan's ARN as their commitment id): the share of their bill the plan
// covered is read once, in the GPU snapshot, and every idle finding and recommendation reads it there.
describe('Savings-Plan-covered GPU machines', () => {
  it('carry the covered share of their last 14 days of bill, a plain sum over the rows; the rest of the fleet none', async () => {
    const db = join(workDir(), 'burnrate.db');
    const { deps } = gpuDemo(() => {}, db);
    deps.sources = buildSources(deps.config).spend;
    await refreshSources(deps);

    const sql = new Database(db, { readonly: true });
    // The independent figure: the effective cost on rows naming a commitment over all of it, from 14 days before today (18 Nov).
    const shareOf = sql.prepare(
      `SELECT sum(CASE WHEN commitment_discount_id IS NOT NULL THEN effective ELSE 0 END) / sum(effective)
       FROM spend_daily WHERE resource_id = ? AND day >= '2026-11-04' AND day < '2026-11-19' AND source <> 'kube-attribution'`,
    );
    const { instances } = await loadGpuSnapshot(deps, { window: recommendationWindow(deps, deps.clock()) });
    const covered = instances.filter((i) => i.covered);
    expect(covered.map((i) => i.name).sort()).toEqual(['llm-pretrain-node-1', 'llm-pretrain-node-2']);
    for (const i of covered) {
      const share = shareOf.pluck().get(i.instanceId) as number;
      expect(share, i.name!).toBeGreaterThan(0);
      expect(i.covered!.share, i.name!).toBeCloseTo(share, 9);
      expect(i.covered!.by).toBe('Savings Plan');
    }
    for (const i of instances.filter((x) => !x.covered && !x.kubernetes))
      expect((shareOf.pluck().get(i.instanceId) as number | null) ?? 0, i.name ?? i.instanceId).toBe(0);
    sql.close();
  });
});
