import {
  GlobalOperationsClient,
  InstanceGroupManagersClient,
  InstancesClient,
  InstanceTemplatesClient,
  ZoneOperationsClient,
} from '@google-cloud/compute';
import { afterEach, describe, expect, it } from 'vitest';
import { teamResolver } from '../../../../src/domain/ownership.js';
import { GceGpuInventory } from '../../../../src/providers/gcp/compute/gce-gpu-inventory.js';
import { GceSpotPort } from '../../../../src/providers/gcp/compute/gce-spot-port.js';
import { gaxClientOptions } from '../../../../src/providers/gcp/google-endpoint.js';
import { launchTemplateOf } from '../../../../src/ports/spot-port.js';
import { FakeComputeEngine, type FakeGceTemplate } from '../../../fakes/fake-compute-engine.js';
import { fakeGoogleAuth } from '../../../fakes/fake-google-cloud.js';

const PROJECT = 'acme-ml-train';
const GROUP = `projects/${PROJECT}/zones/us-central1-a/instanceGroupManagers/cv-train`;
const TEMPLATE: FakeGceTemplate = {
  project: PROJECT,
  name: 'cv-train-a2-v3',
  properties: {
    machineType: 'a2-highgpu-1g',
    labels: { team: 'vision', checkpoint: 'true' },
    scheduling: { provisioningModel: 'STANDARD', onHostMaintenance: 'TERMINATE', automaticRestart: true },
    disks: [
      {
        boot: true,
        initializeParams: { diskSizeGb: '200', sourceImage: 'projects/deeplearning-platform-release/global/images/family/common-cu124' },
      },
    ],
  },
};

let fake: FakeComputeEngine | undefined;
afterEach(async () => {
  fake?.assertNoUnexpectedCalls();
  await fake?.close();
  fake = undefined;
});

async function port() {
  fake = await FakeComputeEngine.start(
    [
      {
        project: PROJECT,
        zone: 'us-central1-a',
        name: 'cv-train-x7k2',
        id: '4100000000000000009',
        machineType: 'a2-highgpu-1g',
        status: 'RUNNING',
        labels: { team: 'vision' },
        group: 'cv-train',
      },
    ],
    [],
    { groups: [{ project: PROJECT, zone: 'us-central1-a', name: 'cv-train', template: TEMPLATE.name }], templates: [TEMPLATE] },
  );
  const options = { ...gaxClientOptions({ url: new URL(fake.endpoint), authClient: fakeGoogleAuth() as never }), projectId: PROJECT };
  const spot = new GceSpotPort({
    groups: new InstanceGroupManagersClient(options),
    templates: new InstanceTemplatesClient(options),
    zoneOperations: new ZoneOperationsClient(options),
    globalOperations: new GlobalOperationsClient(options),
    pollDelaysMs: [0],
  });
  return { spot, instances: new InstancesClient(options) };
}

describe('Compute Engine spot migration of a managed instance group', () => {
  it("finds a VM's group from the VM itself", async () => {
    const { instances } = await port();
    const [vm] = await new GceGpuInventory({
      projects: [PROJECT],
      tagKeys: ['team'],
      resolveTeam: teamResolver([]),
      client: instances,
    }).list();
    expect(launchTemplateOf(vm!.tags)).toBe(GROUP);
  });

  it('copies the template as SPOT and makes it the group’s once under concurrent approvals, then reverts to the template from before', async () => {
    const { spot } = await port();
    const description = 'burnrate: approved by U0ALICE and U0BOB';
    const [first, second] = await Promise.all([
      spot.moveToSpot(GROUP, { dryRun: false, description }),
      spot.moveToSpot(GROUP, { dryRun: false, description }),
    ]);
    expect(first).toMatchObject({ outcome: 'migrated', previousVersion: 'cv-train-a2-v3', currentVersion: 'cv-train-a2-v3-spot' });
    expect(second).toMatchObject({ outcome: 'already-spot' });
    expect(fake!.callsOf('instanceTemplates.insert')).toHaveLength(1);
    expect(fake!.callsOf('instanceGroupManagers.setInstanceTemplate')).toHaveLength(1);
    const copy = fake!.templates.find((t) => t.name === 'cv-train-a2-v3-spot')!;
    // The copy is the template with SPOT scheduling: everything else as it was (the client writes empty maps out too).
    expect(copy.properties).toMatchObject({
      ...TEMPLATE.properties,
      scheduling: {
        provisioningModel: 'SPOT',
        preemptible: true,
        onHostMaintenance: 'TERMINATE',
        automaticRestart: false,
        instanceTerminationAction: 'STOP',
      },
    });
    expect(copy.description).toBe(description);
    expect(fake!.groups[0]!.template).toBe('cv-train-a2-v3-spot');

    expect(await spot.revertToOnDemand(GROUP, 'cv-train-a2-v3', { dryRun: false })).toMatchObject({
      outcome: 'reverted',
      currentVersion: 'cv-train-a2-v3',
    });
    expect(fake!.groups[0]!.template).toBe('cv-train-a2-v3');
    expect((await spot.revertToOnDemand(GROUP, 'cv-train-a2-v3', { dryRun: false })).outcome).toBe('already-on-demand');
    // Moved again: the SPOT copy from before is used, not made twice.
    expect((await spot.moveToSpot(GROUP, { dryRun: false, description })).outcome).toBe('migrated');
    expect(fake!.callsOf('instanceTemplates.insert')).toHaveLength(1);
  });

  it('a dry run only reads, and a missing permission is named with its role', async () => {
    const { spot } = await port();
    expect((await spot.moveToSpot(GROUP, { dryRun: true, description: 'x' })).outcome).toBe('would-migrate');
    expect(fake!.callsOf('instanceTemplates.insert')).toHaveLength(0);
    fake!.deny('instanceTemplates.insert');
    await expect(spot.moveToSpot(GROUP, { dryRun: false, description: 'x' })).rejects.toMatchObject({
      code: 'burnrate_gcp_permission_denied',
      message: expect.stringContaining('compute.instanceTemplates.create'),
      hint: expect.stringContaining('roles/compute.instanceAdmin.v1'),
    });
    expect(fake!.groups[0]!.template).toBe('cv-train-a2-v3');
  });
});
