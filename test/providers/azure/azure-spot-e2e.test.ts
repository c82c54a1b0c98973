import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Deps } from '../../../src/deps.js';
import { demoConfig } from '../../../src/providers/demo/demo-config.js';
import { prometheus } from '../../../src/providers/prometheus/index.js';
import { renderPlainText } from '../../../templates/render/plain-text.js';
import { FakeAzureResourceManager, type FakeAzureScaleSet, type FakeAzureVm } from '../../fakes/fake-azure-resource-manager.js';
import { constant, FakePrometheus } from '../../fakes/fake-prometheus.js';
import { ADMIN, ALICE, BOB } from '../../support/demo-org.js';
import { demoWithGpu } from '../../support/demo-with-gpu.js';
import { dispatchClick as press } from '../../support/dispatch-click.js';
import { gpuDepsAtFakeAzure } from './azure-test-clients.js';

// The demo organisation (ML Research: owner ALICE, approver BOB; ADMIN holds every role) with
// checkpointing A100 trainers on Azure: one in a Flexible scale set of Spot priority whose mix keeps
// every VM regular, one in a Uniform scale set of regular VMs, one standalone.
const NOW = '2026-11-18T06:00:00Z';
const SUB = '0b3c6a1e-5d2f-4e7a-9c81-2f6d4b8e0a17';
const GROUP = 'research-train';
const vmId = (name: string) =>
  `/subscriptions/${SUB}/resourcegroups/${GROUP}/providers/microsoft.compute/virtualmachines/${name}`.toLowerCase();
const scaleSetId = (name: string) =>
  `/subscriptions/${SUB}/resourceGroups/${GROUP}/providers/Microsoft.Compute/virtualMachineScaleSets/${name}`;

const trainer = (name: string, scaleSet?: string): FakeAzureVm => ({
  subscriptionId: SUB,
  resourceGroup: GROUP,
  name,
  location: 'eastus',
  vmSize: 'Standard_NC24ads_A100_v4',
  power: 'running',
  ...(scaleSet ? { scaleSet } : {}),
  tags: { team: 'ml-research', 'burnrate:workload': 'training', checkpoint: 'true', 'checkpoint-interval': '15m' },
});

const SCALE_SETS: FakeAzureScaleSet[] = [
  {
    subscriptionId: SUB,
    resourceGroup: GROUP,
    name: 'research-trainers',
    location: 'eastus',
    orchestrationMode: 'Flexible',
    priority: 'Spot',
    evictionPolicy: 'Deallocate',
    maxPrice: 2.5,
    mix: { base: 1, percent: 100 },
  },
  {
    subscriptionId: SUB,
    resourceGroup: GROUP,
    name: 'legacy-trainers',
    location: 'eastus',
    orchestrationMode: 'Uniform',
    priority: 'Regular',
  },
];

let arm: FakeAzureResourceManager;
let prom: FakePrometheus;

beforeEach(async () => {
  arm = await FakeAzureResourceManager.start({
    vms: [
      trainer('research-trainers_1a2b3c', 'research-trainers'),
      trainer('legacy-trainers_000001', 'legacy-trainers'),
      trainer('research-a100-box'),
    ],
    scaleSets: SCALE_SETS,
  });
  // Every GPU busy all week: the spot saving counts every hour of the month.
  prom = await FakePrometheus.start({
    gpus: ['research-trainers_1a2b3c', 'legacy-trainers_000001', 'research-a100-box'].map((Hostname) => ({
      labels: { Hostname, gpu: '0', UUID: `GPU-${Hostname}`, modelName: 'NVIDIA A100 80GB PCIe' },
      metrics: { DCGM_FI_DEV_GPU_UTIL: constant(95), DCGM_FI_DEV_FB_USED: constant(60_000) },
    })),
  });
});

afterEach(async () => {
  arm.assertNoUnexpectedCalls();
  prom.assertNoUnexpectedRequests();
  await Promise.all([arm.close(), prom.close()]);
});

async function setup(): Promise<Deps> {
  const { deps } = demoWithGpu(
    { metrics: [{ type: 'prometheus', url: prom.url }], inventory: [{ type: 'azure', subscriptions: [SUB] }] },
    NOW,
    // A saving of about $2,100 a month: above this, two different approvers.
    { spot: { ...demoConfig().spot, secondApproverAbove: 1000 } },
  );
  deps.gpu = await gpuDepsAtFakeAzure(deps.config, { arm }, [prometheus]);
  return deps;
}

const approve = (deps: Deps, user: string, name: string) => press(deps, user, 'spot.approve', { i: vmId(name) });
const writes = () => arm.requests.filter((r) => r.method !== 'GET').map((r) => r.call);

describe('spot migration of Azure VMs from burnrate.yml', () => {
  it("sets a Flexible Spot scale set's mix to no regular VMs once approved, and restores it on revert", async () => {
    const deps = await setup();
    const trainerVm = vmId('research-trainers_1a2b3c');
    expect((await approve(deps, ALICE, 'research-trainers_1a2b3c')).text()).toContain('Only approvers of ML Research');
    const first = await approve(deps, BOB, 'research-trainers_1a2b3c');
    expect(renderPlainText(first.threads[0]!)).toContain(`approved by ${BOB} (1 of 2)`);
    const migration = () => deps.store.spotMigrations.active(trainerVm);
    expect(writes()).toEqual([]);
    const answer = await approve(deps, ADMIN, 'research-trainers_1a2b3c');
    expect(renderPlainText(answer.threads[0]!)).toMatch(/moves to spot/);
    expect(await migration()).toMatchObject({ place: 'azure', launchTemplate: scaleSetId('research-trainers') });
    // One update of the scale set, followed to Succeeded: no regular VMs, Spot capped by capacity only.
    expect(writes()).toEqual(['vmss.update']);
    expect(arm.callsOf('operation.status').length).toBeGreaterThan(0);
    expect(arm.scaleSets[0]).toMatchObject({ priority: 'Spot', evictionPolicy: 'Deallocate', maxPrice: -1, mix: { base: 0, percent: 0 } });

    const reverted = await press(deps, ALICE, 'spot.revert', { m: (await migration())!.id });
    expect(renderPlainText(reverted.threads[0]!)).toContain('back on on-demand capacity');
    expect(arm.scaleSets[0]!.mix).toEqual({ base: 1, percent: 100 });
    expect(writes()).toEqual(['vmss.update', 'vmss.update']);
  });

  it('refuses a standalone VM and a scale set without a Spot mix before anyone approves, saying why and what to change', async () => {
    const deps = await setup();
    const standalone = (await approve(deps, BOB, 'research-a100-box')).text();
    expect(standalone).toContain("Azure cannot change a VM's priority from Regular to Spot");
    expect(standalone).toContain('Flexible scale set created with Spot priority');
    const uniform = (await approve(deps, BOB, 'legacy-trainers_000001')).text();
    expect(uniform).toContain('has no Spot Priority Mix to change (Uniform orchestration, Regular priority)');
    expect(await deps.store.spotMigrations.active(vmId('research-a100-box'))).toBeFalsy();
    expect(await deps.store.spotMigrations.active(vmId('legacy-trainers_000001'))).toBeFalsy();
    expect(writes()).toEqual([]);
  });
});
