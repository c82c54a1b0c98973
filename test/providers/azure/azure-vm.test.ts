import { afterEach, describe, expect, it } from 'vitest';
import { ComputeManagementClient } from '@azure/arm-compute';
import { loadPriceCatalog } from '../../../src/catalog/price-catalog.js';
import { BurnrateError } from '../../../src/domain/errors.js';
import { AzureVmInventory } from '../../../src/providers/azure/azure-vm-inventory.js';
import { AzureVmPort } from '../../../src/providers/azure/azure-vm-port.js';
import { FakeAzureResourceManager, type FakeAzureVm } from '../../fakes/fake-azure-resource-manager.js';
import { fakeArmSettings } from './azure-test-clients.js';

const SUB = '11111111-2222-3333-4444-555555555555';
const idOf = (group: string, name: string) =>
  `/subscriptions/${SUB}/resourcegroups/${group}/providers/microsoft.compute/virtualmachines/${name}`;

const VMS: FakeAzureVm[] = [
  {
    subscriptionId: SUB,
    resourceGroup: 'ML-Train',
    name: 'cv-a100',
    location: 'eastus',
    vmSize: 'Standard_NC24ads_A100_v4',
    power: 'running',
    tags: { team: 'vision', 'burnrate:owner': 'U0ALICE' },
    computerName: 'cv-a100-host',
  },
  {
    subscriptionId: SUB,
    resourceGroup: 'ml-train',
    name: 'nlp-t4',
    location: 'eastus',
    vmSize: 'Standard_NC4as_T4_v3',
    power: 'running',
    tags: { team: 'nlp', 'burnrate:protect': 'true' },
  },
  {
    subscriptionId: SUB,
    resourceGroup: 'ml-train',
    name: 'nlp-spot',
    location: 'westeurope',
    vmSize: 'Standard_NC4as_T4_v3',
    power: 'deallocated',
    priority: 'Spot',
    tags: { team: 'nlp' },
  },
  {
    subscriptionId: SUB,
    resourceGroup: 'ml-train',
    name: 'off-but-billing',
    location: 'eastus',
    vmSize: 'Standard_NC4as_T4_v3',
    power: 'stopped',
    tags: { team: 'nlp' },
  },
  {
    subscriptionId: SUB,
    resourceGroup: 'web',
    name: 'web-1',
    location: 'eastus',
    vmSize: 'Standard_D4s_v5',
    power: 'running',
    tags: { team: 'web' },
  },
];

let arm: FakeAzureResourceManager | undefined;
afterEach(async () => {
  arm?.assertNoUnexpectedCalls();
  await arm?.close();
  arm = undefined;
});

async function start(options: { pageSize?: number; pollsBeforeDone?: number } = {}) {
  arm = await FakeAzureResourceManager.start({ vms: VMS, ...options });
  const settings = fakeArmSettings(arm);
  const client = new ComputeManagementClient(settings.credential!, SUB, {
    endpoint: settings.endpoint,
    httpClient: settings.httpClient,
    retryOptions: { maxRetries: 3 },
  });
  const clientFor = (subscriptionId: string) => {
    expect(subscriptionId).toBe(SUB);
    return client;
  };
  return {
    arm,
    port: new AzureVmPort({ clientFor, pollIntervalMs: 1 }),
    inventory: new AzureVmInventory({
      subscriptions: [SUB],
      tagKeys: ['team'],
      resolveTeam: (tag) => tag ?? 'UNTAGGED',
      clientFor,
    }),
  };
}

async function caught(promise: Promise<unknown>): Promise<BurnrateError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BurnrateError);
  return error as BurnrateError;
}

describe('AzureVmInventory against the fake Resource Manager', () => {
  it('lists the N-series VMs over every page (nextLink), with size, region, tags, priority and power, keyed by the lower-case resource id', async () => {
    const { inventory, arm } = await start({ pageSize: 2 });
    const vms = await inventory.list();
    expect(arm.callsOf('vm.listAll')).toHaveLength(3);
    expect(vms.map((v) => v.name)).toEqual(['cv-a100', 'nlp-t4', 'nlp-spot', 'off-but-billing']);
    // Only the GPU VMs had their power state read.
    expect(arm.callsOf('vm.instanceView')).toHaveLength(4);
    const catalog = loadPriceCatalog();
    const a100 = catalog.priceOf('azure', 'Standard_NC24ads_A100_v4', 'eastus')!;
    expect(vms[0]).toMatchObject({
      instanceId: idOf('ml-train', 'cv-a100'),
      provider: 'azure',
      region: 'eastus',
      instanceType: 'Standard_NC24ads_A100_v4',
      gpuModel: a100.gpuModel,
      gpuCount: a100.gpuCount,
      hourlyPrice: a100.onDemandHourly,
      lifecycle: 'on-demand',
      team: 'vision',
      owner: 'U0ALICE',
      protected: false,
      hostNames: ['cv-a100-host', 'cv-a100'],
    });
    expect(vms[0]!.running).toBeUndefined();
    expect(vms[1]).toMatchObject({ protected: true, team: 'nlp' });
    const t4 = catalog.priceOf('azure', 'Standard_NC4as_T4_v3', 'westeurope')!;
    expect(vms[2]).toMatchObject({ lifecycle: 'spot', hourlyPrice: t4.spotHourly ?? t4.onDemandHourly, running: false });
  });

  it('names the RBAC action it was denied', async () => {
    const { inventory, arm } = await start();
    arm.deny('Microsoft.Compute/virtualMachines/read');
    const error = await caught(inventory.list());
    expect(error.code).toBe('burnrate_azure_access_denied');
    expect(error.message).toContain('Microsoft.Compute/virtualMachines/read');
  });
});

describe('AzureVmPort against the fake Resource Manager', () => {
  it('deallocates a running VM once, waiting for the long-running operation; a second stop finds it deallocated', async () => {
    const { port, arm } = await start({ pollsBeforeDone: 2 });
    const id = idOf('ml-train', 'cv-a100');
    const first = await port.stop(id, { dryRun: false });
    expect(first).toMatchObject({ id, outcome: 'stopped', previousState: 'running' });
    expect(first.detail).toContain('Deallocated cv-a100');
    expect(arm.vm('cv-a100').power).toBe('deallocated');
    expect(arm.callsOf('operation.status').length).toBeGreaterThanOrEqual(3);
    expect(await port.stop(id, { dryRun: false })).toMatchObject({ outcome: 'already-stopped', previousState: 'stopped' });
    expect(arm.callsOf('vm.deallocate')).toHaveLength(1);
  });

  it('sends one deallocation for two concurrent stops of the same VM, however its id is cased', async () => {
    const { port, arm } = await start();
    const id = idOf('ml-train', 'cv-a100');
    const results = await Promise.all([
      port.stop(id, { dryRun: false }),
      port.stop(`/subscriptions/${SUB}/resourceGroups/ML-Train/providers/Microsoft.Compute/virtualMachines/cv-a100`, { dryRun: false }),
    ]);
    expect(results.map((r) => r.outcome).sort()).toEqual(['already-stopped', 'stopped']);
    expect(arm.callsOf('vm.deallocate')).toHaveLength(1);
  });

  it('never deallocates a VM tagged burnrate:protect=true', async () => {
    const { port, arm } = await start();
    const result = await port.stop(idOf('ml-train', 'nlp-t4'), { dryRun: false });
    expect(result).toMatchObject({ outcome: 'refused' });
    expect(result.detail).toContain('burnrate:protect=true');
    expect(arm.callsOf('vm.deallocate')).toHaveLength(0);
    expect(arm.vm('nlp-t4').power).toBe('running');
  });

  it('deallocates a VM stopped from inside but still allocated (still billing compute), and says so', async () => {
    const { port, arm } = await start();
    const result = await port.stop(idOf('ml-train', 'off-but-billing'), { dryRun: false });
    expect(result.outcome).toBe('stopped');
    expect(result.detail).toContain('still allocated, billing compute');
    expect(arm.vm('off-but-billing').power).toBe('deallocated');
  });

  it('answers a dry run by reading the VM and deallocates nothing', async () => {
    const { port, arm } = await start();
    expect(await port.stop(idOf('ml-train', 'cv-a100'), { dryRun: true })).toMatchObject({
      outcome: 'would-stop',
      previousState: 'running',
    });
    expect(arm.callsOf('vm.deallocate')).toHaveLength(0);
    expect(arm.callsOf('vm.get')).toHaveLength(1);
  });

  it('retries throttled calls (429, Retry-After) and then deallocates', async () => {
    const { port, arm } = await start();
    arm.throttleNext(2);
    expect(await port.stop(idOf('ml-train', 'cv-a100'), { dryRun: false })).toMatchObject({ outcome: 'stopped' });
    expect(arm.callsOf('vm.get')).toHaveLength(3);
    expect(arm.callsOf('vm.deallocate')).toHaveLength(1);
  });

  it('gives up on throttling after the retries, saying so', async () => {
    const { port, arm } = await start();
    arm.throttleNext(10);
    expect((await caught(port.stop(idOf('ml-train', 'cv-a100'), { dryRun: false }))).code).toBe('burnrate_azure_throttled');
    expect(arm.callsOf('vm.deallocate')).toHaveLength(0);
  });

  it('names the missing deallocate action and leaves the VM running', async () => {
    const { port, arm } = await start();
    arm.deny('Microsoft.Compute/virtualMachines/deallocate/action');
    const error = await caught(port.stop(idOf('ml-train', 'cv-a100'), { dryRun: false }));
    expect(error.code).toBe('burnrate_azure_access_denied');
    expect(error.message).toContain('Microsoft.Compute/virtualMachines/deallocate/action');
    expect(arm.vm('cv-a100').power).toBe('running');
  });

  it('says clearly when a VM does not exist', async () => {
    const { port } = await start();
    const error = await caught(port.stop(idOf('ml-train', 'gone'), { dryRun: false }));
    expect(error.code).toBe('burnrate_azure_vm_not_found');
    expect((await caught(port.describe(['i-0123']))).code).toBe('burnrate_azure_vm_not_found');
  });
});
