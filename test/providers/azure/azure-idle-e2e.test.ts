import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadPriceCatalog } from '../../../src/catalog/price-catalog.js';
import { runGpuCheck } from '../../../src/jobs/gpu-check.js';
import { HOURS_HEADER, tempDir, writeFocusCsv, type FixtureRow } from '../focus/helpers.js';
import { deliverOutbox } from '../../../src/outbox/deliver-outbox.js';
import { prometheus } from '../../../src/providers/prometheus/index.js';
import { monthOf } from '../../../src/domain/period.js';
import { loadSavingsLedger } from '../../../src/snapshots/savings-ledger.js';
import { renderPlainText } from '../../../templates/render/plain-text.js';
import { FakeAzureResourceManager, type FakeAzureVm } from '../../fakes/fake-azure-resource-manager.js';
import { FakeAzureMonitorMetrics, type FakeTelegrafGpu } from '../../fakes/fake-azure-monitor-metrics.js';
import { FakePrometheus } from '../../fakes/fake-prometheus.js';
import { STRANGER } from '../../support/demo-org.js';
import { stopClick as stop } from '../../support/gpu-demo.js';
import { dcgmIdleFleet, NLP_OWNER as BOB, VISION_OWNER as ALICE, vmIdleDeps } from '../../support/vm-idle-e2e.js';
import { gpuDepsAtFakeAzure } from './azure-test-clients.js';

// Wednesday 18 Nov 2026, 06:00 UTC; the idle GPUs went idle at 01:00.
const NOW = '2026-11-18T06:00:00Z';
const T = Date.parse(NOW) / 1000;
const IDLE_FROM = T - 5 * 3600;
const SUB = '0b3c6a1e-5d2f-4e7a-9c81-2f6d4b8e0a17';

/** As burnrate keys an Azure VM: its resource id in lower case. */
const vmId = (group: string, name: string) =>
  `/subscriptions/${SUB}/resourcegroups/${group}/providers/microsoft.compute/virtualmachines/${name}`;
const VISION_IDLE = vmId('cv-train', 'cv-a100-notebook');
const NLP_PROTECTED = vmId('nlp-serve', 'nlp-serving');
const NLP_BUSY = vmId('nlp-train', 'nlp-train');

const VMS: FakeAzureVm[] = [
  {
    subscriptionId: SUB,
    resourceGroup: 'CV-Train',
    name: 'cv-a100-notebook',
    location: 'eastus',
    vmSize: 'Standard_NC24ads_A100_v4',
    power: 'running',
    tags: { team: 'vision', 'burnrate:workload': 'notebook' },
  },
  {
    subscriptionId: SUB,
    resourceGroup: 'nlp-serve',
    name: 'nlp-serving',
    location: 'eastus',
    vmSize: 'Standard_NC4as_T4_v3',
    power: 'running',
    tags: { team: 'nlp', 'burnrate:protect': 'true' },
  },
  {
    subscriptionId: SUB,
    resourceGroup: 'nlp-train',
    name: 'nlp-train',
    location: 'eastus',
    vmSize: 'Standard_NC24ads_A100_v4',
    power: 'running',
    tags: { team: 'nlp' },
  },
  // No GPU: never listed, never deallocated.
  {
    subscriptionId: SUB,
    resourceGroup: 'web',
    name: 'web-1',
    location: 'eastus',
    vmSize: 'Standard_D4s_v5',
    power: 'running',
    tags: { team: 'vision' },
  },
];

/** DCGM's Hostname is the VM's computer name. */
const dcgmFleet = () => dcgmIdleFleet(IDLE_FROM, ['cv-a100-notebook', 'nlp-serving'], ['nlp-train']);

/** The same VMs' GPUs as Telegraf's nvidia_smi input publishes them to Azure Monitor: by the VM's resource id, no host names. */
function telegrafGpus(): FakeTelegrafGpu[] {
  const idleSince = (t: number) => (t >= IDLE_FROM ? 0 : 96);
  const at = (group: string, name: string, util: (t: number) => number): FakeTelegrafGpu => ({
    vmId: `/subscriptions/${SUB}/resourceGroups/${group}/providers/Microsoft.Compute/virtualMachines/${name}`,
    region: 'eastus',
    index: '0',
    util,
    memoryUsedMiB: (t) => (util(t) > 0 ? 30_000 : 400),
  });
  return [at('CV-Train', 'cv-a100-notebook', idleSince), at('nlp-serve', 'nlp-serving', idleSince), at('nlp-train', 'nlp-train', () => 97)];
}

let arm: FakeAzureResourceManager | undefined;
let prom: FakePrometheus | undefined;
let monitor: FakeAzureMonitorMetrics | undefined;

beforeEach(async () => {
  arm = await FakeAzureResourceManager.start({ vms: VMS, pageSize: 2 });
  prom = await FakePrometheus.start({ gpus: dcgmFleet() });
  monitor = await FakeAzureMonitorMetrics.start(telegrafGpus());
});

afterEach(async () => {
  arm?.assertNoUnexpectedCalls();
  prom?.assertNoUnexpectedRequests();
  monitor?.assertNoUnexpectedRequests();
  await Promise.all([arm?.close(), prom?.close(), monitor?.close()]);
  arm = prom = monitor = undefined;
});

const setup = (actionsEnabled = true, bill?: string, metrics: object[] = [{ type: 'prometheus', url: prom!.url }]) =>
  vmIdleDeps({
    now: NOW,
    gpu: { metrics, inventory: [{ type: 'azure', subscriptions: [SUB] }] },
    gpuOf: (config) => gpuDepsAtFakeAzure(config, { arm: arm!, monitor: monitor! }, [prometheus]),
    actionsEnabled,
    ...(bill ? { bill } : {}),
  });

const a100Price = () => loadPriceCatalog().priceOf('azure', 'Standard_NC24ads_A100_v4', 'eastus')!.onDemandHourly;

describe('Azure GPU VMs and DCGM metrics from burnrate.yml', () => {
  it('alerts each team for its idle VMs at the catalog price; Stop deallocates once, never a protected VM nor for a stranger', async () => {
    const { deps, chat } = await setup();
    const result = await runGpuCheck(deps);
    expect(result.findings.map((f) => `${f.state} ${f.team} ${f.instanceId}`).sort()).toEqual(
      [`new nlp ${NLP_PROTECTED}`, `new vision ${VISION_IDLE}`].sort(),
    );
    // The busy VM is listed and not idle; the VM without GPUs is not listed.
    expect((await deps.gpu!.inventory()).instances.map((i) => i.instanceId).sort()).toEqual([VISION_IDLE, NLP_PROTECTED, NLP_BUSY].sort());
    const vision = result.findings.find((f) => f.instanceId === VISION_IDLE)!;
    expect(vision.hourlyPrice).toBe(a100Price());
    await deliverOutbox(deps);
    const alert = chat.posted.find((p) => p.address === '#vision')!.message;
    expect(renderPlainText(alert)).toMatch(/cv-a100-notebook \(Standard_NC24ads_A100_v4\): idle since .+ · \$[\d,.]+ burned/);
    // Stop's confirmation says it deallocates, and why: a stopped but allocated VM still bills compute.
    expect(JSON.stringify(alert)).toContain('This deallocates Azure VM cv-a100-notebook');
    expect(JSON.stringify(alert)).toContain('a VM stopped but still allocated keeps billing compute');

    expect((await stop(deps, STRANGER, VISION_IDLE)).text()).toContain('Only owners and approvers of vision');
    expect(arm!.callsOf('vm.deallocate')).toHaveLength(0);

    const [first, second] = await Promise.all([stop(deps, ALICE, VISION_IDLE), stop(deps, ALICE, VISION_IDLE)]);
    expect([first, second].flatMap((r) => r.updates.map((u) => renderPlainText(u))).join('\n')).toContain(`Stopped by ${ALICE}`);
    expect(arm!.vm('cv-a100-notebook').power).toBe('deallocated');
    expect((await stop(deps, ALICE, VISION_IDLE)).text()).toMatch(/^Already stopped by U0ALICE/);

    expect((await stop(deps, BOB, NLP_PROTECTED)).text()).toContain('nlp-serving is protected');
    expect(arm!.vm('nlp-serving').power).toBe('running');

    // One deallocation, of the clicked VM, its operation followed to the end.
    expect(arm!.callsOf('vm.deallocate').map((c) => c.path.split('/').slice(-2, -1)[0])).toEqual(['cv-a100-notebook']);
    expect(arm!.callsOf('operation.status').length).toBeGreaterThan(0);
    const audited = (await deps.store.audit.list()).sort((a, b) => a.id - b.id);
    expect(audited.filter((a) => a.result === 'ok').map((a) => a.userId)).toEqual([ALICE]);
    expect(audited.map((a) => a.result)).toContain('refused');
    // The savings ledger holds the one deallocation, expected at the VM's price for a day.
    const ledger = await loadSavingsLedger(deps, monthOf('2026-11-01'));
    expect(ledger.lines.map((l) => [l.resourceId, l.byUser])).toEqual([[VISION_IDLE, ALICE]]);
    expect(ledger.lines[0]!.expectedDaily).toBeCloseTo(a100Price() * 24, 2);
  });

  it('in dry run (actions not enabled) deallocates nothing', async () => {
    const { deps } = await setup(false);
    await runGpuCheck(deps);
    const answer = await stop(deps, ALICE, VISION_IDLE);
    expect(answer.text() + answer.updates.map((u) => renderPlainText(u)).join('\n')).toMatch(/dry run|Dry run/);
    expect(arm!.callsOf('vm.deallocate')).toHaveLength(0);
    expect(arm!.vm('cv-a100-notebook').power).toBe('running');
  });
});

describe('Azure GPU VMs and the GPU metrics they publish to Azure Monitor', () => {
  it('finds the idle VMs by their resource ids, re-checks only the clicked VM and deallocates it once under concurrent clicks', async () => {
    const { deps } = await setup(true, undefined, [{ type: 'azure-monitor', subscriptions: [SUB] }]);
    const result = await runGpuCheck(deps);
    expect(result.findings.map((f) => `${f.team} ${f.instanceId}`).sort()).toEqual(
      [`nlp ${NLP_PROTECTED}`, `vision ${VISION_IDLE}`].sort(),
    );
    // One batch for the region's three GPU VMs, split by GPU index, averaged by Azure Monitor.
    const [batch] = monitor!.requests;
    expect(batch!.region).toBe('eastus');
    expect(batch!.resourceIds.map((id) => id.toLowerCase()).sort()).toEqual([VISION_IDLE, NLP_PROTECTED, NLP_BUSY].sort());
    expect(batch!.query.get('filter')).toBe("index eq '*'");
    expect(batch!.query.get('metricnames')).toBe('utilization_gpu,memory_used');

    const before = monitor!.requests.length;
    await Promise.all([stop(deps, ALICE, VISION_IDLE), stop(deps, ALICE, VISION_IDLE), stop(deps, ALICE, VISION_IDLE)]);
    const recheck = monitor!.requests.slice(before);
    expect(recheck.length).toBeGreaterThan(0);
    expect(recheck.every((r) => r.resourceIds.length === 1 && r.resourceIds[0]!.toLowerCase() === VISION_IDLE)).toBe(true);
    expect((await stop(deps, BOB, NLP_PROTECTED)).text()).toContain('nlp-serving is protected');
    expect(arm!.callsOf('vm.deallocate').map((c) => c.path.split('/').slice(-2, -1)[0])).toEqual(['cv-a100-notebook']);
    expect(arm!.vm('nlp-serving').power).toBe('running');
  });

  it('retries a throttled read and names the missing RBAC action when Azure Monitor refuses', async () => {
    const { deps } = await setup(true, undefined, [{ type: 'azure-monitor', subscriptions: [SUB] }]);
    monitor!.throttleNext(1);
    expect((await runGpuCheck(deps)).findings).toHaveLength(2);
    monitor!.deny();
    const denied = await runGpuCheck(deps).then(
      () => '',
      (error: Error) => error.message,
    );
    expect(denied).toContain('Microsoft.Insights/metrics/read');
  });
});

describe('an Azure VM on the bill', () => {
  const tmp = tempDir();

  it("is priced at the bill's effective rate, its resource id matched whatever case the export spells it in", async () => {
    // Eight whole days of cv-a100-notebook under a reservation, its resource group spelt two ways
    // (as ARM keeps it and in lower case, as cost exports often write it).
    const rows: FixtureRow[] = [];
    for (let day = 10; day <= 17; day++)
      rows.push({
        ProviderName: 'Microsoft',
        ServiceName: 'Virtual Machines',
        BillingAccountId: 'acme-ea',
        SubAccountId: SUB,
        BillingPeriodStart: '2026-11-01T00:00:00Z',
        ChargePeriodStart: `2026-11-${day}T00:00:00Z`,
        ChargePeriodEnd: `2026-11-${day + 1}T00:00:00Z`,
        ResourceId:
          day % 2 === 0
            ? `/subscriptions/${SUB}/resourceGroups/CV-Train/providers/Microsoft.Compute/virtualMachines/cv-a100-notebook`
            : VISION_IDLE,
        BilledCost: '0',
        EffectiveCost: (day === 17 ? 52.08 : 48.96).toFixed(2),
        PricingCategory: 'Committed',
        ConsumedQuantity: '24',
        ConsumedUnit: 'Hours',
        Tags: '{"team":"vision"}',
      });
    const bill = writeFocusCsv(tmp.path('azure-focus.csv'), rows, HOURS_HEADER);
    const { deps } = await setup(true, bill);
    const result = await runGpuCheck(deps);
    const vision = result.findings.find((f) => f.instanceId === VISION_IDLE)!;
    // The independent figure: the rows' effective cost over their hours.
    const effective = rows.reduce((sum, r) => sum + Number(r.EffectiveCost), 0);
    const hours = rows.reduce((sum, r) => sum + Number(r.ConsumedQuantity), 0);
    expect(vision.hourlyPrice).toBeCloseTo(effective / hours, 6);
    expect(vision.hourlyPrice).toBeLessThan(a100Price());
    expect(vision.description).toContain('at its billed rate');
    tmp.cleanup();
  });
});
