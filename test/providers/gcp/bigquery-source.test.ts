import { describe, expect, it } from 'vitest';
import { addDays } from '../../../src/domain/period.js';
import { refreshSources } from '../../../src/jobs/refresh-sources.js';
import type { FakeExportRow } from '../../fakes/fake-bigquery-export.js';
import { FakeGoogleCloud } from '../../fakes/fake-google-cloud.js';
import { testDeps } from '../../support/deps.js';
import { fakeLifecycle } from '../../support/fake-lifecycle.js';
import { GCP_TABLE, useGoogleFake } from './gcp-test-sources.js';
import { demoTeams } from '../../support/demo-org.js';

const NOW = '2026-11-21T09:00:00Z';

/** Every day: a labelled GPU VM with a sustained-use credit, a project-labelled bucket, an unlabelled network line, and a label naming nobody. */
function exportRows(from: string, to: string): FakeExportRow[] {
  const rows: FakeExportRow[] = [];
  for (let day = from; day < to; day = addDays(day, 1)) {
    rows.push({
      day,
      service: 'Compute Engine',
      project: 'llm-prod',
      labels: { team: 'llm' },
      projectLabels: { team: 'ml-research' },
      cost: 100,
      credits: [-20, -5],
      resource: 'projects/llm-prod/instances/a3-0',
    });
    rows.push({ day, service: 'Cloud Storage', project: 'research-data', projectLabels: { Team: 'research' }, cost: 10 });
    rows.push({ day, service: 'Networking', project: 'shared-vpc', cost: 3 });
    rows.push({ day, service: 'Vertex AI', project: 'sandbox', labels: { team: 'interns' }, cost: 1 });
  }
  return rows;
}

const CONFIG = (extra: Record<string, unknown> = {}) => ({
  ownership: { tagKeys: ['team'] },
  teams: demoTeams(),
  sources: [{ type: 'gcp', project: 'acme-billing', table: GCP_TABLE, location: 'EU', ...extra }],
});

const fakes = fakeLifecycle<FakeGoogleCloud>();

async function setup(options: { rowsPerPage?: number; extra?: Record<string, unknown> } = {}) {
  const fake = fakes.track(
    await FakeGoogleCloud.start({
      table: GCP_TABLE,
      exportRows: exportRows('2026-09-01', '2026-11-21'),
      ...(options.rowsPerPage ? { rowsPerPage: options.rowsPerPage } : {}),
    }),
  );
  const t = testDeps(CONFIG(options.extra), NOW);
  useGoogleFake(t.deps, fake);
  return { ...t, fake };
}

describe('BigQuery billing export source', () => {
  it('backfills with one query, pages through the results, nets credits and finds owners in resource then project labels', async () => {
    const { deps, fake } = await setup({ rowsPerPage: 50 });
    expect(await refreshSources(deps)).toMatchObject([{ source: 'gcp', ok: true }]);
    const [query] = fake.callsOf('bigquery.query');
    expect(fake.callsOf('bigquery.query')).toHaveLength(1);
    expect(query!.body.location).toBe('EU');
    expect(query!.body.queryParameters).toEqual(
      expect.arrayContaining([
        { name: 'start', parameterType: { type: 'DATE' }, parameterValue: { value: '2026-09-12' } },
        { name: 'end', parameterType: { type: 'DATE' }, parameterValue: { value: '2026-11-21' } },
      ]),
    );
    // 70 days x 4 groups = 280 rows, 50 a page: the first comes with jobs.query, five more pages.
    expect(fake.callsOf('bigquery.getQueryResults')).toHaveLength(5);

    const november = { period: { start: '2026-11-01', end: '2026-11-21' } };
    const byTeam = new Map((await deps.store.spend.totals(november, 'team')).map((r) => [r.key, r]));
    // Resource label "llm" wins over the project label; credits netted in effective cost only.
    expect(byTeam.get('llm-training')).toEqual({ key: 'llm-training', currency: 'USD', billed: 2000, effective: 1500 });
    expect(byTeam.get('ml-research')).toEqual({ key: 'ml-research', currency: 'USD', billed: 200, effective: 200 });
    expect(byTeam.get('(untagged)')?.billed).toBe(60);
    expect(byTeam.get('(unmapped)')?.billed).toBe(20);
    const byProvider = await deps.store.spend.totals(november, 'provider');
    expect(byProvider.map((r) => r.key)).toEqual(['Google Cloud']);
  });

  it('refreshes only the missing days and the last three again', async () => {
    const { deps, fake, setNow } = await setup();
    await refreshSources(deps);
    // Google revises 19 Nov (a late credit) and bills 21 Nov.
    const revised = exportRows('2026-09-01', '2026-11-22');
    revised.push({ day: '2026-11-19', service: 'Compute Engine', project: 'llm-prod', labels: { team: 'llm' }, cost: 0, credits: [-40] });
    fake.setExportRows(revised);
    setNow('2026-11-22T09:00:00Z');
    await refreshSources(deps);
    const second = fake.callsOf('bigquery.query')[1]!;
    const value = (name: string) => second.body.queryParameters.find((p: { name: string }) => p.name === name).parameterValue.value;
    expect([value('start'), value('end')]).toEqual(['2026-11-18', '2026-11-22']);
    const [llm] = await deps.store.spend.totals({ period: { start: '2026-11-01', end: '2026-11-22' }, teams: ['llm-training'] }, 'team');
    expect(llm).toEqual({ key: 'llm-training', currency: 'USD', billed: 2100, effective: 21 * 75 - 40 });
  });

  it('reads resource names from the detailed export', async () => {
    const { deps } = await setup({ extra: { export: 'detailed' } });
    await refreshSources(deps);
    const resources = await deps.store.spend.totals(
      { period: { start: '2026-11-20', end: '2026-11-21' }, teams: ['llm-training'] },
      'resource',
    );
    expect(resources.map((r) => r.key)).toEqual(['projects/llm-prod/instances/a3-0']);
  });

  it('keys a VM by its global name (as the Compute Engine inventory does), shows its own name, and counts its hours as the hourly windows it was charged time in', async () => {
    const vm = '//compute.googleapis.com/projects/llm-prod/zones/us-central1-a/instances/4100000000000000007';
    const day = '2026-11-20';
    // 20 hours of an A2 VM as the detailed export writes them: its cores, memory and GPU each a line an hour
    // (the committed use credit on the GPU line), and its boot disk, another resource, every hour of the day.
    const rows: FakeExportRow[] = [];
    for (let hour = 0; hour < 24; hour++) {
      const line = (usageUnit: string, cost: number, credits: number[] = []): FakeExportRow => ({
        day,
        hour,
        service: 'Compute Engine',
        project: 'llm-prod',
        labels: { team: 'llm' },
        cost,
        credits,
        resource: 'a2-notebook',
        globalName: vm,
        usageUnit,
      });
      if (hour < 20) rows.push(line('seconds', 0.38), line('byte-seconds', 0.1), line('seconds', 2.93, [-1.1]));
      rows.push({
        ...line('byte-seconds', 0.01),
        resource: 'a2-notebook-boot',
        globalName: '//compute.googleapis.com/projects/llm-prod/zones/us-central1-a/disks/4100000000000000008',
      });
    }
    const { deps, fake } = await setup({ extra: { export: 'detailed' } });
    fake.setExportRows(rows);
    await refreshSources(deps);
    const [hours] = (await deps.store.spend.resourceHours('2026-11-01')).filter((h) => h.resourceId === vm);
    // The independent figures: the VM's lines' cost net of credits, over the hours it had a time-based line.
    const vmRows = rows.filter((r) => r.globalName === vm);
    const net = vmRows.reduce((sum, r) => sum + r.cost + (r.credits ?? []).reduce((a, b) => a + b, 0), 0);
    expect(hours).toMatchObject({ resourceId: vm, hours: 20 });
    expect(hours!.effective).toBeCloseTo(net, 6);
    // The disk is a resource of its own, with no hours of use.
    expect((await deps.store.spend.resourceHours('2026-11-01')).map((h) => h.resourceId)).toEqual([vm]);
    const resources = await deps.store.spend.totals({ period: { start: day, end: '2026-11-21' } }, 'resource');
    expect(resources.map((r) => r.key).sort()).toEqual(
      [
        `a2-notebook (${vm})`,
        'a2-notebook-boot (//compute.googleapis.com/projects/llm-prod/zones/us-central1-a/disks/4100000000000000008)',
      ].sort(),
    );
  });

  it('retries rate limits and 5xx, then names the missing permission when access is denied', async () => {
    const { deps, fake, setNow } = await setup({ extra: { maxAttempts: 3 } });
    fake.failNext('bigquery.query', 'RATE_LIMITED');
    fake.failNext('bigquery.query', 'UNAVAILABLE');
    expect((await refreshSources(deps))[0]).toMatchObject({ ok: true });
    expect(fake.callsOf('bigquery.query')).toHaveLength(3);

    fake.failNext('bigquery.query', 'PERMISSION_DENIED');
    setNow('2026-11-22T09:00:00Z');
    const [denied] = await refreshSources(deps);
    expect(denied!.ok).toBe(false);
    expect(denied!.error).toContain('BigQuery denied bigquery.jobs.create');
    expect(denied!.error).toContain('roles/bigquery.jobUser');
    expect(fake.callsOf('bigquery.query')).toHaveLength(4);
  });

  it('caps the bytes a query may bill, and says how to raise the cap', async () => {
    const { deps, fake } = await setup({ extra: { maxGigabytesBilled: 5 } });
    expect((await refreshSources(deps))[0]).toMatchObject({ ok: true });
    expect(fake.callsOf('bigquery.query')[0]!.body.maximumBytesBilled).toBe('5000000000');
    fake.setBytesPerQuery(7e9);
    const [refused] = await refreshSources(deps);
    expect(refused!.ok).toBe(false);
    expect(refused!.error).toContain('would bill more than maxGigabytesBilled allows');
    expect(refused!.error).toContain('Raise maxGigabytesBilled');
    expect(fake.callsOf('bigquery.query')).toHaveLength(2); // not retried
  });

  it('gives up after maxAttempts when throttling persists', async () => {
    const { deps, fake } = await setup({ extra: { maxAttempts: 2 } });
    fake.failNext('bigquery.query', 'RATE_LIMITED', 5);
    const [result] = await refreshSources(deps);
    expect(result!.ok).toBe(false);
    expect(result!.error).toMatch(/BigQuery kept refusing \(429, 2 attempts\)/);
    expect(fake.callsOf('bigquery.query')).toHaveLength(2);
  });
});
