import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DemoSpotPort } from '../../src/providers/demo/demo-spot-port.js';
import type { Deps } from '../../src/deps.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { FakeEc2, type FakeEc2Instance } from '../fakes/fake-ec2.js';
import { constant, FakePrometheus } from '../fakes/fake-prometheus.js';
import { isolateAwsEnv, TEST_AWS_CREDENTIALS, useEc2Endpoint } from '../support/aws-test-env.js';
import { demoWithGpu } from '../support/demo-with-gpu.js';
import { ADMIN, ALICE, BOB } from '../support/demo-org.js';
import { dispatchClick as press } from '../support/dispatch-click.js';

// The demo organisation (ML Research: owner ALICE, approver BOB; ADMIN holds every role) with two
// EC2 trainers of its own from gpu.inventory, in two regions, each launched from a launch template.
const NOW = '2026-11-18T06:00:00Z';
const EU_TRAINER = 'i-0e1000000000000e1'; // p4d.24xlarge in eu-west-1: spot saves more than $5,000 a month
const US_TRAINER = 'i-0a2000000000000a2'; // g4dn.xlarge in us-east-1: a small saving, one approver
const EU_LT = 'lt-0e1e1e1e1e1e1e1e1';
const US_LT = 'lt-0a2a2a2a2a2a2a2a2';
const LOST_TRAINER = 'i-0b3000000000000b3'; // tagged with a launch template EC2 does not have
const LOST_LT = 'lt-0b3b3b3b3b3b3b3b3';
const DEMO_LT = 'lt-0a3f9c1e7d2b4a6c8'; // research-train-fra's, in the demo's own launch templates

const trainer = (id: string, region: string, instanceType: string, host: string, lt: string, name: string): FakeEc2Instance => ({
  id,
  region,
  state: 'running',
  instanceType,
  privateDnsName: `${host}.${region}.compute.internal`,
  tags: {
    Name: name,
    team: 'ml-research',
    'burnrate:workload': 'training',
    checkpoint: 'true',
    'checkpoint-interval': '15m',
    'aws:ec2launchtemplate:id': lt,
  },
});

let ec2: FakeEc2;
let prom: FakePrometheus;

beforeEach(async () => {
  isolateAwsEnv();
  ec2 = await FakeEc2.start({
    instances: [
      trainer(EU_TRAINER, 'eu-west-1', 'p4d.24xlarge', 'ip-10-1-0-5', EU_LT, 'eu-trainer'),
      trainer(US_TRAINER, 'us-east-1', 'g4dn.xlarge', 'ip-10-2-0-7', US_LT, 'us-trainer'),
      trainer(LOST_TRAINER, 'us-east-1', 'g4dn.xlarge', 'ip-10-3-0-9', LOST_LT, 'lost-trainer'),
    ],
    launchTemplates: [
      { id: EU_LT, versions: [{ instanceType: 'p4d.24xlarge', spot: false }], defaultVersion: 1 },
      { id: US_LT, versions: [{ instanceType: 'g4dn.xlarge', spot: false }], defaultVersion: 1 },
    ],
  });
  // Every GPU of each machine busy all week: the spot saving counts every hour of the month.
  const busy = (host: string, gpus: number) =>
    Array.from({ length: gpus }, (_, gpu) => ({
      labels: { Hostname: host, gpu: String(gpu), UUID: `GPU-${host}-${gpu}`, modelName: 'NVIDIA A100-SXM4-40GB' },
      metrics: { DCGM_FI_DEV_GPU_UTIL: constant(95), DCGM_FI_DEV_FB_USED: constant(30_000) },
    }));
  // A p4d.24xlarge has 8 GPUs, a g4dn.xlarge one.
  prom = await FakePrometheus.start({ gpus: [...busy('ip-10-1-0-5', 8), ...busy('ip-10-2-0-7', 1), ...busy('ip-10-3-0-9', 1)] });
  // The SDK's own settings, as an operator points burnrate at an endpoint.
  useEc2Endpoint(ec2.endpoint);
});

afterEach(async () => {
  vi.unstubAllEnvs();
  ec2.assertNoUnexpectedCalls();
  prom.assertNoUnexpectedRequests();
  await Promise.all([ec2.close(), prom.close()]);
});

/** The demo plus `gpu.inventory` (EC2 in two regions) and Prometheus metrics, as burnrate.yml says them; actions on. */
function setup(): Deps {
  const { deps } = demoWithGpu(
    { metrics: [{ type: 'prometheus', url: prom.url }], inventory: [{ type: 'ec2', regions: ['us-east-1', 'eu-west-1'] }] },
    NOW,
  );
  deps.gpu = buildGpuDeps(deps.config, {})!;
  return deps;
}

const writes = () => ec2.calls.filter((c) => c.action !== 'DescribeLaunchTemplateVersions' && c.action !== 'DescribeInstances');

describe('spot migrations from burnrate.yml: demo and EC2 side by side, each instance to its own place', () => {
  it('approves with two approvers, changes the launch template through EC2 in the instance’s region, and reverts there', async () => {
    const deps = setup();
    const approve = (user: string, id: string) => press(deps, user, 'spot.approve', { i: id });

    // Refused before anything is recorded or sent: the owner is no approver.
    expect((await approve(ALICE, EU_TRAINER)).text()).toContain('Only approvers of ML Research can approve moving eu-trainer to spot');

    // The first approver: recorded, said in the thread; EC2 untouched.
    const first = await approve(BOB, EU_TRAINER);
    expect(renderPlainText(first.threads[0]!)).toContain(`approved by ${BOB} (1 of 2)`);
    const pending = (await deps.store.spotMigrations.active(EU_TRAINER))!;
    expect(pending).toMatchObject({ place: 'aws:eu-west-1', launchTemplate: EU_LT, approvalsNeeded: 2 });
    expect(pending.monthlySaving).toBeGreaterThan(deps.config.spot.secondApproverAbove);
    expect(writes()).toHaveLength(0);

    // The second, different approver: a spot version made the default, signed for eu-west-1.
    const second = await approve(ADMIN, EU_TRAINER);
    expect(second.privates).toHaveLength(0);
    expect(renderPlainText(second.threads[0]!)).toMatch(
      /^eu-trainer moves to spot, approved by U0DEMOBOB and U0DEMOADMIN: about \$[\d,.]+ a month saved/,
    );
    expect(ec2.launchTemplates.get(EU_LT)).toMatchObject({ defaultVersion: 2, versions: [{ spot: false }, { spot: true }] });
    expect(writes().map((c) => `${c.action} ${c.region} ${c.params.LaunchTemplateId}`)).toEqual([
      `CreateLaunchTemplateVersion eu-west-1 ${EU_LT}`,
      `ModifyLaunchTemplate eu-west-1 ${EU_LT}`,
    ]);
    expect(ec2.callsOf('CreateLaunchTemplateVersion')[0]!.params).toMatchObject({
      SourceVersion: '1',
      'LaunchTemplateData.InstanceMarketOptions.MarketType': 'spot',
    });
    expect(
      ec2.calls
        .filter((c) => c.params.LaunchTemplateId === EU_LT)
        .every((c) => c.region === 'eu-west-1' && c.accessKeyId === TEST_AWS_CREDENTIALS.accessKeyId),
    ).toBe(true);

    // Revert: back to version 1, through the same region's client.
    const migration = (await deps.store.spotMigrations.active(EU_TRAINER))!;
    const reverted = await press(deps, ALICE, 'spot.revert', { m: migration.id });
    expect(renderPlainText(reverted.threads[0]!)).toContain('eu-trainer is back on on-demand capacity');
    expect(ec2.launchTemplates.get(EU_LT)?.defaultVersion).toBe(1);
    expect(writes().at(-1)).toMatchObject({
      action: 'ModifyLaunchTemplate',
      region: 'eu-west-1',
      params: { LaunchTemplateId: EU_LT, SetDefaultVersion: '1' },
    });
  });

  it('a saving under the limit takes one approver; the us-east-1 instance goes to us-east-1, a demo instance to the demo', async () => {
    const deps = setup();
    const demoFra = (await deps.gpu!.inventory()).instances.find((i) => i.name === 'research-train-fra')!.instanceId;

    expect((await press(deps, BOB, 'spot.approve', { i: US_TRAINER })).privates).toHaveLength(0);
    expect(ec2.launchTemplates.get(US_LT)).toMatchObject({ defaultVersion: 2 });
    expect(writes().map((c) => `${c.action} ${c.region}`)).toEqual([
      'CreateLaunchTemplateVersion us-east-1',
      'ModifyLaunchTemplate us-east-1',
    ]);
    expect((await deps.store.spotMigrations.active(US_TRAINER))!.place).toBe('aws:us-east-1');

    // The demo's own trainer, in the same installation: its template is the demo's, EC2 hears nothing of it.
    const before = ec2.calls.length;
    await press(deps, BOB, 'spot.approve', { i: demoFra });
    await press(deps, ADMIN, 'spot.approve', { i: demoFra });
    expect(((await deps.gpu!.spot!.at('demo')) as DemoSpotPort).defaultsToSpot(DEMO_LT)).toBe(true);
    expect((await deps.store.spotMigrations.active(demoFra))!.place).toBe('demo');
    expect(ec2.calls.slice(before).filter((c) => c.action !== 'DescribeInstances')).toEqual([]);
  });

  it('an EC2 instance whose launch template EC2 does not know is refused by EC2’s answer, never with the demo’s', async () => {
    const deps = setup();
    const reply = await press(deps, BOB, 'spot.approve', { i: LOST_TRAINER });
    const text = reply.text();
    expect(text).toContain(LOST_LT);
    expect(text).not.toMatch(/demo/i);
    expect(ec2.callsOf('DescribeLaunchTemplateVersions').map((c) => c.region)).toEqual(['us-east-1']);
    expect(writes()).toHaveLength(0);
    // The failed attempt is not left claimed: the approval stays, the migration is approving again.
    expect((await deps.store.spotMigrations.active(LOST_TRAINER))!.state).toBe('approving');
  });
});
