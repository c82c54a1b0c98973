import { describe, expect, it } from 'vitest';
import { runGpuCheck } from '../../src/jobs/gpu-check.js';
import { loadSpendReport } from '../../src/snapshots/spend-report.js';
import type { SpendRow } from '../../src/domain/spend.js';
import type { Deps } from '../../src/deps.js';
import { gpuDemo } from '../support/gpu-demo.js';
import { spendRow, testDeps } from '../support/deps.js';

// A Compute Engine VM known by its numeric id alone (a bill or a GPU fleet that gives no project or
// zone) has no console page of its own: the console finds a VM by project, zone and name. Where the
// bill names the same VM in full, by the numeric id or by its name, that page is linked.
const ID = '6661818903810209354';
const PAGE = 'https://console.cloud.google.com/compute/instancesDetail/zones/us-central1-a/instances/llm-pretrain-a3-0?project=ml-research';
const gceRow = (resourceId: string, extra: Partial<SpendRow> = {}): SpendRow => ({
  ...spendRow('ml', '2026-11-03', 200),
  provider: 'Google Cloud',
  service: 'Compute Engine',
  resourceId,
  usageHours: 24,
  ...extra,
});

async function linksOf(rows: SpendRow[]): Promise<Record<string, string | null>> {
  const { deps } = testDeps({ teams: [{ id: 'ml' }] }, '2026-11-20T10:00:00Z');
  await importRows(deps, rows, '2026-11');
  const report = await loadSpendReport(deps, { period: { start: '2026-11-01', end: '2026-12-01' }, by: 'resource' });
  return Object.fromEntries(report.rows.map((r) => [r.key, r.link ?? null]));
}

function importRows(deps: Deps, rows: SpendRow[], period: string) {
  return deps.store.importBatches([
    { scope: { source: 'test-gce', billingPeriods: [period] }, rows, dataThrough: `${period}-28T00:00:00Z` },
  ]);
}

describe('a Compute Engine VM known by its numeric id', () => {
  it('links to its console page where the bill names it in full, by its numeric id or by its name', async () => {
    const full = `//compute.googleapis.com/projects/ml-research/zones/us-central1-a/instances/${ID}`;
    const byId = await linksOf([gceRow(ID, { resourceName: 'llm-pretrain-a3-0' }), gceRow(full, { resourceName: 'llm-pretrain-a3-0' })]);
    expect(byId[`llm-pretrain-a3-0 (${ID})`]).toBe(PAGE);
    expect(byId[`llm-pretrain-a3-0 (${full})`]).toBe(PAGE);

    const named = 'projects/ml-research/zones/us-central1-a/instances/llm-pretrain-a3-0';
    const byName = await linksOf([gceRow(ID, { resourceName: 'llm-pretrain-a3-0' }), gceRow(named)]);
    expect(byName[`llm-pretrain-a3-0 (${ID})`]).toBe(PAGE);
  });

  it('gets no link where nothing names it in full, or where two VMs of that name in two projects could be it', async () => {
    expect(await linksOf([gceRow(ID, { resourceName: 'llm-pretrain-a3-0' })])).toEqual({ [`llm-pretrain-a3-0 (${ID})`]: null });
    const twice = await linksOf([
      gceRow(ID, { resourceName: 'llm-pretrain-a3-0' }),
      gceRow('projects/ml-research/zones/us-central1-a/instances/llm-pretrain-a3-0'),
      gceRow('projects/ml-staging/zones/us-central1-a/instances/llm-pretrain-a3-0'),
    ]);
    expect(twice[`llm-pretrain-a3-0 (${ID})`]).toBeNull();
  });

  it("links the idle alert of the demo's GCE machine, known to the fleet by its numeric id, once the bill names it", async () => {
    const idleLinks = async (bill: SpendRow[]) => {
      const { deps } = gpuDemo();
      const machine = (await deps.gpu!.inventory()).instances.find((i) => i.name === 'llm-pretrain-a3-0')!;
      expect(machine.instanceId).toMatch(/^\d+$/);
      await importRows(
        deps,
        bill.map((r) => ({
          ...r,
          day: '2026-11-10',
          billingPeriod: '2026-11',
          team: 'llm-training',
          resourceId: r.resourceId!.replace(ID, machine.instanceId),
        })),
        '2026-11',
      );
      const finding = (await runGpuCheck(deps)).findings.find((f) => f.name === 'llm-pretrain-a3-0')!;
      return (finding.links ?? []).map((l) => l.url);
    };
    expect(await idleLinks([])).not.toContain(PAGE);
    expect(await idleLinks([gceRow(`//compute.googleapis.com/projects/ml-research/zones/us-central1-a/instances/${ID}`)])).toContain(PAGE);
  });
});
