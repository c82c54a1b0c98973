import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Deps } from '../../../../src/deps.js';
import { buildGpuDeps } from '../../../../src/providers/gpu-registry.js';
import { renderPlainText } from '../../../../templates/render/plain-text.js';
import { FakeComputeEngine } from '../../../fakes/fake-compute-engine.js';
import { constant, FakePrometheus } from '../../../fakes/fake-prometheus.js';
import { ADMIN, ALICE, BOB } from '../../../support/demo-org.js';
import { demoWithGpu } from '../../../support/demo-with-gpu.js';
import { dispatchClick as press } from '../../../support/dispatch-click.js';
import { useGoogleWorkloadIdentity } from './gce-test-env.js';

// The demo organisation (ML Research: owner ALICE, approver BOB; ADMIN holds every role) with one
// Compute Engine trainer of its own: an 8×A100 VM its managed instance group made, checkpointing.
const NOW = '2026-11-18T06:00:00Z';
const PROJECT = 'research-train-prod';
const TRAINER = `//compute.googleapis.com/projects/${PROJECT}/zones/us-central1-a/instances/4200000000000000001`;

let compute: FakeComputeEngine;
let prom: FakePrometheus;

// The Compute Engine and Cloud Monitoring clients take seconds to load (their protos), longer on a
// busy machine: loaded once here, as burnrate loads them at the first GPU read, not inside a test's time.
beforeAll(() => import('../../../../src/providers/gcp/gcp-gpu.js'), 180_000);

beforeEach(async () => {
  compute = await FakeComputeEngine.start(
    [
      {
        project: PROJECT,
        zone: 'us-central1-a',
        name: 'research-a2-trainer-7c1f',
        id: '4200000000000000001',
        machineType: 'a2-highgpu-8g',
        status: 'RUNNING',
        group: 'research-trainers',
        labels: { team: 'ml-research', 'burnrate-workload': 'training', checkpoint: 'true', 'checkpoint-interval': '15m' },
      },
    ],
    [],
    {
      groups: [{ project: PROJECT, zone: 'us-central1-a', name: 'research-trainers', template: 'research-a2-v7' }],
      templates: [
        {
          project: PROJECT,
          name: 'research-a2-v7',
          properties: { machineType: 'a2-highgpu-8g', scheduling: { provisioningModel: 'STANDARD', onHostMaintenance: 'TERMINATE' } },
        },
      ],
    },
  );
  // Every GPU busy all week: the spot saving counts every hour of the month.
  prom = await FakePrometheus.start({
    gpus: Array.from({ length: 8 }, (_, gpu) => ({
      labels: { Hostname: 'research-a2-trainer-7c1f', gpu: String(gpu), UUID: `GPU-a2-${gpu}`, modelName: 'NVIDIA A100-SXM4-40GB' },
      metrics: { DCGM_FI_DEV_GPU_UTIL: constant(95), DCGM_FI_DEV_FB_USED: constant(30_000) },
    })),
  });
  useGoogleWorkloadIdentity(compute.endpoint);
});

afterEach(async () => {
  vi.unstubAllEnvs();
  compute.assertNoUnexpectedCalls();
  prom.assertNoUnexpectedRequests();
  await Promise.all([compute.close(), prom.close()]);
});

function setup(): Deps {
  const { deps } = demoWithGpu(
    { metrics: [{ type: 'prometheus', url: prom.url }], inventory: [{ type: 'gce', projects: [PROJECT] }] },
    NOW,
  );
  deps.gpu = buildGpuDeps(deps.config, {})!;
  return deps;
}

const writes = () => compute.calls.filter((c) => c.method === 'POST' && c.api !== 'sts.token').map((c) => c.api);

describe('spot migration of a Compute Engine VM from burnrate.yml', () => {
  it('takes two different approvers, then makes the group’s next VMs SPOT, and reverts', async () => {
    const deps = setup();
    const approve = (user: string) => press(deps, user, 'spot.approve', { i: TRAINER });
    expect((await approve(ALICE)).text()).toContain('Only approvers of ML Research');
    const first = await approve(BOB);
    expect(renderPlainText(first.threads[0]!)).toContain(`approved by ${BOB} (1 of 2)`);
    expect(await deps.store.spotMigrations.active(TRAINER)).toMatchObject({
      place: 'gcp',
      launchTemplate: `projects/${PROJECT}/zones/us-central1-a/instanceGroupManagers/research-trainers`,
      approvalsNeeded: 2,
    });
    expect(writes()).toEqual([]);

    const second = await approve(ADMIN);
    expect(renderPlainText(second.threads[0]!)).toMatch(/moves to spot, approved by U0DEMOBOB and U0DEMOADMIN/);
    expect(writes()).toEqual(['instanceTemplates.insert', 'instanceGroupManagers.setInstanceTemplate']);
    expect(compute.groups[0]!.template).toBe('research-a2-v7-spot');
    expect(compute.templates.find((t) => t.name === 'research-a2-v7-spot')!.properties.scheduling.provisioningModel).toBe('SPOT');

    const migration = (await deps.store.spotMigrations.active(TRAINER))!;
    const reverted = await press(deps, ALICE, 'spot.revert', { m: migration.id });
    expect(renderPlainText(reverted.threads[0]!)).toContain('back on on-demand capacity');
    expect(compute.groups[0]!.template).toBe('research-a2-v7');
  });
});
