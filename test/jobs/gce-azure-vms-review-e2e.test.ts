import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Deps } from '../../src/deps.js';
import { dispatch } from '../../src/inbound/dispatcher.js';
import { monthOf } from '../../src/domain/period.js';
import { runGpuCheck } from '../../src/jobs/gpu-check.js';
import { runMonthlyReview } from '../../src/jobs/monthly-review.js';
import { refreshSources } from '../../src/jobs/refresh-sources.js';
import { deliverOutbox } from '../../src/outbox/deliver-outbox.js';
import { gcp } from '../../src/providers/gcp/index.js';
import { buildSources } from '../../src/providers/registry.js';
import { loadSavingsLedger } from '../../src/snapshots/savings-ledger.js';
import { loadWasteDiagnosis } from '../../src/snapshots/waste-snapshot.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { FakeAzureMonitorMetrics } from '../fakes/fake-azure-monitor-metrics.js';
import { FakeAzureResourceManager } from '../fakes/fake-azure-resource-manager.js';
import type { FakeExportRow } from '../fakes/fake-bigquery-export.js';
import { FakeComputeEngine } from '../fakes/fake-compute-engine.js';
import { fakeGoogleAuth, FakeGoogleCloud } from '../fakes/fake-google-cloud.js';
import { gpuDepsAtFakeAzure } from '../providers/azure/azure-test-clients.js';
import { HOURS_HEADER, tempDir, writeFocusCsv, type FixtureRow } from '../providers/focus/helpers.js';
import { useGoogleWorkloadIdentity } from '../providers/gcp/compute/gce-test-env.js';
import { GCP_TABLE } from '../providers/gcp/gcp-test-sources.js';
import { testDeps } from '../support/deps.js';
import { findingOfInstance, press } from '../support/gpu-demo.js';
import { command } from '../support/recording-reply.js';

// Wednesday 18 Nov 2026, 06:00 UTC; both VMs went idle at 01:00 after busy weeks.
const NOW = '2026-11-18T06:00:00Z';
const T = Date.parse(NOW) / 1000;
const IDLE_FROM = T - 5 * 3600;
const ALICE = 'U0ALICE'; // owns vision: a Compute Engine VM
const BOB = 'U0BOB'; // owns nlp: an Azure VM
const PROJECT = 'acme-ml-train';
const SUB = '0b3c6a1e-5d2f-4e7a-9c81-2f6d4b8e0a17';
const GCE_VM = `//compute.googleapis.com/projects/${PROJECT}/zones/us-central1-a/instances/4100000000000000001`;
const AZURE_ARM_ID = `/subscriptions/${SUB}/resourceGroups/NLP-Train/providers/Microsoft.Compute/virtualMachines/nlp-a100-notebook`;
const AZURE_VM = AZURE_ARM_ID.toLowerCase();
const BILLED_DAYS = Array.from({ length: 17 }, (_, i) => `2026-11-${String(i + 1).padStart(2, '0')}`);

const idleSince = (t: number) => (t >= IDLE_FROM ? 0 : 94);

/** The Compute Engine VM's detailed billing export: its cores, memory and GPU a line an hour, the GPU under a committed use credit. */
function gceBill(): FakeExportRow[] {
  return BILLED_DAYS.flatMap((day) =>
    Array.from({ length: 24 }, (_, hour) => {
      const line = (usageUnit: string, cost: number, credits: number[] = []): FakeExportRow => ({
        day,
        hour,
        service: 'Compute Engine',
        project: PROJECT,
        labels: { team: 'vision' },
        cost,
        credits,
        resource: 'cv-a100-notebook',
        globalName: GCE_VM,
        usageUnit,
      });
      return [line('seconds', 0.41), line('byte-seconds', 0.11), line('seconds', 2.93, [-0.88])];
    }).flat(),
  );
}

/** The Azure VM's FOCUS export: a day a row, under a reservation from the 10th. */
function azureBill(): FixtureRow[] {
  return BILLED_DAYS.map((day, i) => ({
    ProviderName: 'Microsoft',
    ServiceName: 'Virtual Machines',
    BillingAccountId: 'acme-ea',
    SubAccountId: SUB,
    BillingPeriodStart: '2026-11-01T00:00:00Z',
    ChargePeriodStart: `${day}T00:00:00Z`,
    ChargePeriodEnd: `2026-11-${String(i + 2).padStart(2, '0')}T00:00:00Z`,
    ResourceId: AZURE_ARM_ID,
    BilledCost: i >= 9 ? '0' : '88.16',
    EffectiveCost: i >= 9 ? '52.08' : '88.16',
    PricingCategory: i >= 9 ? 'Committed' : 'Standard',
    ConsumedQuantity: '24',
    ConsumedUnit: 'Hours',
    Tags: '{"team":"nlp"}',
  }));
}

/** The independent figures: each bill's rows summed as written (from `since` on), and their hours. */
const net = (r: FakeExportRow) => r.cost + (r.credits ?? []).reduce((a, b) => a + b, 0);
const gceRows = (since = '') => gceBill().filter((r) => r.day >= since);
const gceCost = (since?: string) => gceRows(since).reduce((sum, r) => sum + net(r), 0);
const gceHours = (since?: string) => new Set(gceRows(since).map((r) => `${r.day} ${r.hour}`)).size;
const azureRows = (since = '') => azureBill().filter((r) => r.ChargePeriodStart! >= since);
const azureCost = (since?: string) => azureRows(since).reduce((sum, r) => sum + Number(r.EffectiveCost), 0);
const azureHours = (since?: string) => azureRows(since).reduce((sum, r) => sum + Number(r.ConsumedQuantity), 0);
/** A VM's billed rate is its bill's cost per hour over the 14 days before today. */
const RATE_SINCE = '2026-11-04';

const tmp = tempDir();
let compute: FakeComputeEngine | undefined;
let google: FakeGoogleCloud | undefined;
let arm: FakeAzureResourceManager | undefined;
let monitor: FakeAzureMonitorMetrics | undefined;

// The Compute Engine and Cloud Monitoring clients take seconds to load: once, before the tests' time.
beforeAll(() => import('../../src/providers/gcp/gcp-gpu.js'), 180_000);
afterAll(() => tmp.cleanup());

beforeEach(async () => {
  compute = await FakeComputeEngine.start(
    [
      {
        project: PROJECT,
        zone: 'us-central1-a',
        name: 'cv-a100-notebook',
        id: '4100000000000000001',
        machineType: 'a2-highgpu-1g',
        status: 'RUNNING',
        labels: { team: 'vision', 'burnrate-workload': 'notebook' },
      },
    ],
    [{ project: PROJECT, zone: 'us-central1-a', instanceId: '4100000000000000001', gpu: '0', util: idleSince }],
  );
  google = await FakeGoogleCloud.start({ table: GCP_TABLE, exportRows: gceBill() });
  arm = await FakeAzureResourceManager.start({
    vms: [
      {
        subscriptionId: SUB,
        resourceGroup: 'NLP-Train',
        name: 'nlp-a100-notebook',
        location: 'eastus',
        vmSize: 'Standard_NC24ads_A100_v4',
        power: 'running',
        tags: { team: 'nlp', 'burnrate:workload': 'notebook' },
      },
    ],
  });
  monitor = await FakeAzureMonitorMetrics.start([{ vmId: AZURE_ARM_ID, region: 'eastus', index: '0', util: idleSince }]);
  useGoogleWorkloadIdentity(compute.endpoint);
});

afterEach(async () => {
  vi.unstubAllEnvs();
  compute?.assertNoUnexpectedCalls();
  arm?.assertNoUnexpectedCalls();
  monitor?.assertNoUnexpectedRequests();
  await Promise.all([compute?.close(), google?.close(), arm?.close(), monitor?.close()]);
  compute = google = arm = monitor = undefined;
});

/** burnrate.yml with both clouds' bills, VMs and GPU metrics; the GPU parts at the fakes as serve composes them. */
async function setup(): Promise<{ deps: Deps; chat: ReturnType<typeof testDeps>['chat'] }> {
  const bill = writeFocusCsv(tmp.path('azure-focus.csv'), azureBill(), HOURS_HEADER);
  const t = testDeps(
    {
      teams: [
        { id: 'vision', owners: [ALICE] },
        { id: 'nlp', owners: [BOB] },
      ],
      sources: [
        { type: 'gcp', project: 'acme-billing', table: GCP_TABLE, location: 'US', export: 'detailed' },
        { type: 'focus', paths: [bill] },
      ],
      gpu: {
        metrics: [
          { type: 'cloud-monitoring', projects: [PROJECT] },
          { type: 'azure-monitor', subscriptions: [SUB] },
        ],
        inventory: [
          { type: 'gce', projects: [PROJECT] },
          { type: 'azure', subscriptions: [SUB] },
        ],
      },
      actions: { enabled: true },
    },
    NOW,
  );
  t.deps.sources = buildSources(t.deps.config, { BURNRATE_GCP_ENDPOINT: google!.endpoint }, { googleAuth: fakeGoogleAuth() }).spend;
  expect((await refreshSources(t.deps)).every((r) => r.ok)).toBe(true);
  t.deps.gpu = await gpuDepsAtFakeAzure(t.deps.config, { arm: arm!, monitor: monitor! }, [gcp]);
  return t;
}

describe('an idle Compute Engine VM and an idle Azure VM, each on its bill', () => {
  it("appear in idle, the idle alerts, the waste diagnosis, the monthly review and the savings ledger at the bill's rate", async () => {
    const { deps, chat } = await setup();
    const gceRate = gceCost(RATE_SINCE) / gceHours(RATE_SINCE);
    const azureRate = azureCost(RATE_SINCE) / azureHours(RATE_SINCE);

    // idle: each VM at its billed rate, not the catalog's.
    const idle = await runGpuCheck(deps, { dryRun: true });
    const rateOf = (id: string) => idle.findings.find((f) => f.instanceId === id)?.hourlyPrice;
    expect(rateOf(GCE_VM)).toBeCloseTo(gceRate, 6);
    expect(rateOf(AZURE_VM)).toBeCloseTo(azureRate, 6);
    // /burnrate idle in chat: each owner sees their team's VM.
    for (const [user, name] of [
      [ALICE, 'cv-a100-notebook'],
      [BOB, 'nlp-a100-notebook'],
    ] as const) {
      const asked = command(user, 'idle');
      await dispatch(deps, asked);
      expect(asked.reply.text()).toContain(name);
    }

    // The idle alerts, one per team, each with Stop, priced as the bill priced the VM.
    const run = await runGpuCheck(deps);
    for (const [id, rate] of [
      [GCE_VM, gceRate],
      [AZURE_VM, azureRate],
    ] as const) {
      const finding = run.findings.find((f) => f.instanceId === id)!;
      expect(finding.hourlyPrice).toBeCloseTo(rate, 6);
      expect(finding.description).toContain('at its billed rate');
    }
    await deliverOutbox(deps);
    const alertOf = (channel: string) => renderPlainText(chat.posted.find((p) => p.address === channel)!.message);
    expect(alertOf('#vision')).toMatch(/cv-a100-notebook \(a2-highgpu-1g\): idle since/);
    expect(alertOf('#nlp')).toMatch(/nlp-a100-notebook \(Standard_NC24ads_A100_v4\): idle since/);

    // The month's waste: each team's GPU spend is its VM's bill, summed as written; its idle hours are idle.
    const november = monthOf('2026-11-01');
    const waste = await loadWasteDiagnosis(deps, november);
    const teamWaste = (team: string) => waste.teams.find((t) => t.team === team)!;
    expect(teamWaste('vision').gpuSpend).toBeCloseTo(gceCost(), 6);
    expect(teamWaste('nlp').gpuSpend).toBeCloseTo(azureCost(), 6);
    for (const team of ['vision', 'nlp']) {
      expect(teamWaste(team).idleGpuHours).toBeGreaterThanOrEqual(4);
      expect(teamWaste(team).categories.find((c) => c.id === 'idle')!.monthly).toBeGreaterThan(0);
    }

    // The monthly review lists each VM as its team's cost line at the bill's sum, beside the same waste.
    const reviews = await runMonthlyReview(deps, { month: '2026-11', dryRun: true });
    const reviewOf = (team: string) => reviews.find((r) => r.team === team)!;
    const lineCost = (team: string, id: string) => reviewOf(team).lines.find((l) => l.resourceId?.toLowerCase() === id)?.cost;
    expect(lineCost('vision', GCE_VM)).toBeCloseTo(gceCost(), 6);
    expect(lineCost('nlp', AZURE_VM)).toBeCloseTo(azureCost(), 6);
    expect(reviewOf('vision').figures.waste?.row.gpuSpend).toBeCloseTo(gceCost(), 6);
    expect(reviewOf('nlp').figures.waste?.row.gpuSpend).toBeCloseTo(azureCost(), 6);

    // Stop from each alert: the savings ledger expects a day of each VM at its billed rate (kept in cents).
    await press(deps, ALICE, 'instance.stop', await findingOfInstance(deps, GCE_VM));
    await press(deps, BOB, 'instance.stop', await findingOfInstance(deps, AZURE_VM));
    expect(compute!.statusOf('cv-a100-notebook')).toBe('TERMINATED');
    expect(arm!.vm('nlp-a100-notebook').power).toBe('deallocated');
    const ledger = await loadSavingsLedger(deps, november);
    const expectedDaily = (id: string) => ledger.lines.find((l) => l.resourceId === id)?.expectedDaily;
    expect(expectedDaily(GCE_VM)).toBeCloseTo(gceRate * 24, 2);
    expect(expectedDaily(AZURE_VM)).toBeCloseTo(azureRate * 24, 2);
  });
});
