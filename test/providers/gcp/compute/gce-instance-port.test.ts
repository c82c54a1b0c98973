import { InstancesClient, ZoneOperationsClient } from '@google-cloud/compute';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPriceCatalog } from '../../../../src/catalog/price-catalog.js';
import { teamResolver } from '../../../../src/domain/ownership.js';
import { GceGpuInventory } from '../../../../src/providers/gcp/compute/gce-gpu-inventory.js';
import { gceInstanceId } from '../../../../src/providers/gcp/compute/gce-instance-id.js';
import { GceInstancePort } from '../../../../src/providers/gcp/compute/gce-instance-port.js';
import { gaxClientOptions } from '../../../../src/providers/gcp/google-endpoint.js';
import { FakeComputeEngine, type FakeGceVm } from '../../../fakes/fake-compute-engine.js';
import { fakeGoogleAuth } from '../../../fakes/fake-google-cloud.js';

const PROJECT = 'acme-ml-train';
const vm = (n: number, extra: Partial<FakeGceVm> = {}): FakeGceVm => ({
  project: PROJECT,
  zone: n % 2 ? 'us-central1-a' : 'europe-west4-b',
  name: `vm-${n}`,
  id: String(5_000_000_000_000_000_000n + BigInt(n)),
  machineType: 'g2-standard-4',
  status: 'RUNNING',
  labels: { team: 'vision' },
  ...extra,
});
const idOf = (v: FakeGceVm) => gceInstanceId({ project: v.project, zone: v.zone, id: v.id });

let fake: FakeComputeEngine | undefined;
afterEach(async () => {
  fake?.assertNoUnexpectedCalls();
  await fake?.close();
  fake = undefined;
});

/** The real Compute Engine clients, pointed at the fake (started once per test) with its token. */
async function clients(vms: FakeGceVm[]) {
  fake ??= await FakeComputeEngine.start(vms);
  const options = { ...gaxClientOptions({ url: new URL(fake.endpoint), authClient: fakeGoogleAuth() as never }), projectId: PROJECT };
  return { instances: new InstancesClient(options), operations: new ZoneOperationsClient(options) };
}

function inventory(client: InstancesClient) {
  return new GceGpuInventory({
    projects: [PROJECT],
    tagKeys: ['team'],
    resolveTeam: teamResolver([{ id: 'vision', match: [] } as never]),
    client,
  });
}

describe('Compute Engine GPU inventory', () => {
  it('reads every page of every zone and keeps only the VMs with GPUs, priced from the catalog (spot at spot)', async () => {
    const many = Array.from({ length: 1203 }, (_, i) => vm(i, i % 3 === 0 ? { machineType: 'e2-standard-4' } : {}));
    const special = [
      vm(9001, { machineType: 'n1-standard-8', accelerators: { type: 'nvidia-tesla-t4', count: 2 } }),
      vm(9003, { machineType: 'a2-highgpu-1g', provisioningModel: 'SPOT', labels: { team: 'vision', 'burnrate-protect': 'true' } }),
      vm(9005, { machineType: 'a3-highgpu-8g', status: 'TERMINATED' }),
    ];
    const { instances } = await clients([...many, ...special]);
    const listed = await inventory(instances).list();

    const pages = fake!.callsOf('instances.aggregatedList');
    expect(pages).toHaveLength(3); // 1206 VMs, 500 a page
    expect(pages.map((p) => p.query.get('pageToken'))).toEqual([null, '500', '1000']);
    // An independent count: every VM but the e2 ones.
    const withGpus = [...many, ...special].filter((v) => v.machineType !== 'e2-standard-4');
    expect(listed.map((i) => i.instanceId).sort()).toEqual(withGpus.map(idOf).sort());

    const catalog = loadPriceCatalog();
    const byName = new Map(listed.map((i) => [i.name, i]));
    expect(byName.get('vm-1')).toMatchObject({
      provider: 'gcp',
      region: 'us-central1',
      instanceType: 'g2-standard-4',
      gpuModel: 'L4',
      hourlyPrice: catalog.priceOf('gcp', 'g2-standard-4', 'us-central1')!.onDemandHourly,
      team: 'vision',
      hostNames: ['vm-1', `vm-1.us-central1-a.c.${PROJECT}.internal`, '10.128.0.2'],
    });
    const spot = catalog.priceOf('gcp', 'a2-highgpu-1g', 'us-central1')!;
    expect(byName.get('vm-9003')).toMatchObject({
      lifecycle: 'spot',
      hourlyPrice: spot.spotHourly ?? spot.onDemandHourly,
      protected: true,
    });
    expect(byName.get('vm-9001')).toMatchObject({ gpuModel: 'T4', gpuCount: 2, hourlyPrice: 0 });
    expect(byName.get('vm-9001')!.priceNote).toContain('priced by the bill');
    expect(byName.get('vm-9005')!.running).toBe(false);
  });

  it('names the permission and the role when Compute Engine refuses the list', async () => {
    const { instances } = await clients([vm(1)]);
    fake!.deny('instances.aggregatedList');
    await expect(inventory(instances).list()).rejects.toMatchObject({
      code: 'burnrate_gcp_permission_denied',
      message: expect.stringContaining('compute.instances.list'),
      hint: expect.stringContaining('roles/compute.viewer'),
    });
  });
});

describe('Compute Engine stop port', () => {
  it('stops a running VM once, following its operation to DONE; a second stop sends nothing', async () => {
    const target = vm(1);
    const port = new GceInstancePort({ ...(await clients([target])), discardLocalSsdIn: new Set<string>(), pollDelaysMs: [0] });
    const [first, second] = await Promise.all([port.stop(idOf(target), { dryRun: false }), port.stop(idOf(target), { dryRun: false })]);
    expect(first).toMatchObject({ outcome: 'stopped', previousState: 'running' });
    expect(second).toMatchObject({ outcome: 'already-stopped' });
    expect(fake!.callsOf('instances.stop')).toHaveLength(1);
    expect(fake!.callsOf('zoneOperations.get')).toHaveLength(1);
    expect(fake!.statusOf('vm-1')).toBe('TERMINATED');
    expect(await port.describe([idOf(target)])).toEqual([{ id: idOf(target), state: 'stopped', tags: { team: 'vision' } }]);
  });

  it('refuses a VM with local SSDs unless discarding them is configured, then sends discardLocalSsd', async () => {
    const target = vm(1, { machineType: 'a3-highgpu-8g', localSsds: 16 });
    const refused = new GceInstancePort({ ...(await clients([target])), discardLocalSsdIn: new Set<string>(), pollDelaysMs: [0] });
    const answer = await refused.stop(idOf(target), { dryRun: false });
    expect(answer.outcome).toBe('refused');
    expect(answer.detail).toContain('16 local SSDs');
    expect(answer.detail).toContain('discardLocalSsd: true');
    expect(fake!.callsOf('instances.stop')).toHaveLength(0);

    const allowed = new GceInstancePort({ ...(await clients([target])), discardLocalSsdIn: new Set([PROJECT]), pollDelaysMs: [0] });
    expect((await allowed.stop(idOf(target), { dryRun: false })).outcome).toBe('stopped');
    expect(fake!.callsOf('instances.stop').map((c) => c.query.get('discardLocalSsd'))).toEqual(['true']);
  });

  it('never stops a VM labelled burnrate-protect, and a dry run only reads', async () => {
    const guarded = vm(1, { labels: { team: 'vision', 'burnrate-protect': 'true' } });
    const free = vm(3);
    const port = new GceInstancePort({ ...(await clients([guarded, free])), discardLocalSsdIn: new Set<string>() });
    expect((await port.stop(idOf(guarded), { dryRun: false })).detail).toContain('burnrate-protect=true');
    expect((await port.stop(idOf(free), { dryRun: true })).outcome).toBe('would-stop');
    expect(fake!.callsOf('instances.stop')).toHaveLength(0);
  });

  it("says Compute Engine's own words when the stop's operation ends in an error", async () => {
    const target = vm(1, {
      stopError: { code: 'RESOURCE_OPERATION_RATE_EXCEEDED', message: 'Operation rate exceeded for resource vm-1.' },
    });
    const port = new GceInstancePort({ ...(await clients([target])), discardLocalSsdIn: new Set<string>(), pollDelaysMs: [0] });
    await expect(port.stop(idOf(target), { dryRun: false })).rejects.toMatchObject({
      code: 'burnrate_gce_operation_failed',
      message: expect.stringContaining('RESOURCE_OPERATION_RATE_EXCEEDED: Operation rate exceeded for resource vm-1.'),
    });
    expect(fake!.statusOf('vm-1')).toBe('RUNNING');
  });

  it('says so when the VM is gone or the stop permission is missing', async () => {
    const target = vm(1);
    const port = new GceInstancePort({ ...(await clients([target])), discardLocalSsdIn: new Set<string>() });
    await expect(port.stop(gceInstanceId({ project: PROJECT, zone: 'us-central1-a', id: '42' }), { dryRun: false })).rejects.toMatchObject({
      code: 'burnrate_gce_instance_not_found',
    });
    fake!.deny('instances.stop');
    await expect(port.stop(idOf(target), { dryRun: false })).rejects.toMatchObject({
      code: 'burnrate_gcp_permission_denied',
      message: expect.stringContaining('compute.instances.stop'),
      hint: expect.stringContaining('roles/compute.instanceAdmin.v1'),
    });
  });
});
