import { SageMakerClient } from '@aws-sdk/client-sagemaker';
import { afterEach, describe, expect, it } from 'vitest';
import { StudioGpuInventory } from '../../../../src/providers/aws/sagemaker-studio/studio-gpu-inventory.js';
import { BurnrateError } from '../../../../src/domain/errors.js';
import { FakeSageMaker } from '../../../fakes/fake-sagemaker.js';
import { TEST_AWS_CREDENTIALS } from '../../../support/aws-test-env.js';
import { ALICE, BOB, CAROL, DAN_CPU, DELETED, DOMAINS, ERIN_CLASSIC, NOW, SPACES, studioApps } from './studio-fixture.js';

// The Studio inventory through the real SageMaker client against a fake speaking its protocol
// (awsJson1_1): GPU apps only, each with Studio's record of user activity and what Studio's own
// idle shutdown is set to, lists read page by page, and denials that name the IAM action.

let fake: FakeSageMaker | undefined;
afterEach(async () => {
  fake?.assertNoUnexpectedCalls();
  await fake?.close();
  fake = undefined;
});

async function inventoryOf(options: { pageSize?: number; domains?: string[] } = {}) {
  fake = await FakeSageMaker.start({ domains: DOMAINS, spaces: SPACES, apps: studioApps(), pageSize: options.pageSize ?? 50 });
  const client = new SageMakerClient({ region: 'eu-west-1', endpoint: fake.endpoint, credentials: TEST_AWS_CREDENTIALS, maxAttempts: 1 });
  return new StudioGpuInventory({
    regions: ['eu-west-1'],
    domains: options.domains,
    tagKeys: ['team'],
    resolveTeam: (tag) => tag ?? 'UNTAGGED',
    clientFor: () => client,
  });
}

describe('the SageMaker Studio GPU inventory', () => {
  it('lists the running GPU apps, never a CPU or a deleted one, reading every page of ListApps', async () => {
    const inventory = await inventoryOf({ pageSize: 1 });
    const listed = await inventory.list();
    expect(listed.map((i) => i.instanceId).sort()).toEqual([ALICE, BOB, CAROL, ERIN_CLASSIC].map((a) => fake!.arnOf(a)).sort());
    // A CPU app and a deleted one cost no call beyond the list.
    const described = fake!.callsOf('DescribeApp').map((c) => c.input.SpaceName ?? c.input.UserProfileName);
    expect(described).not.toContain(DAN_CPU.space);
    expect(fake!.callsOf('DescribeApp').some((c) => c.input.AppName === DELETED.name)).toBe(false);
    // One page per app of each domain: the NextToken was followed.
    expect(fake!.callsOf('ListApps').filter((c) => c.input.NextToken).length).toBeGreaterThan(2);
    expect(fake!.callsOf('ListApps').every((c) => c.region === 'eu-west-1')).toBe(true);
  });

  it("gives each app its team, owner, GPUs, Studio's last user activity, and no price the catalog does not have", async () => {
    const alice = (await (await inventoryOf()).list()).find((i) => i.instanceId === fake!.arnOf(ALICE))!;
    expect(alice).toMatchObject({
      name: 'alice-lab (JupyterLab)',
      provider: 'aws',
      region: 'eu-west-1',
      instanceType: 'ml.g5.xlarge',
      team: 'research',
      owner: 'U0ALICE',
      workload: 'notebook',
      gpuModel: 'A10G',
      gpuCount: 1,
      hourlyPrice: 0,
      activity: { lastActiveAt: ALICE.lastUserActivity, signal: "SageMaker Studio's record of user activity" },
    });
    // SageMaker's price is not EC2's: none is borrowed, and the note says where it will come from.
    expect(alice.priceNote).toContain('no price: the price catalog has no ml.g5.xlarge with 1× A10G; priced by the bill');
    expect(Date.parse(NOW)).toBeGreaterThan(Date.parse(alice.activity!.lastActiveAt));
  });

  it("says what Studio's idle shutdown is set to: off, the domain's default, a space's own timeout, or not Studio's to say", async () => {
    const listed = await (await inventoryOf()).list();
    const of = (app: typeof ALICE) => listed.find((i) => i.instanceId === fake!.arnOf(app))!.notebook;
    expect(of(ALICE)).toEqual({
      platform: 'sagemaker-studio',
      culling: 'SageMaker Studio idle shutdown is off: nothing stops it but people',
      culls: false,
    });
    expect(of(BOB)).toMatchObject({ culls: true });
    expect(of(BOB)!.culling).toContain('stops it after 120 minutes without activity');
    expect(of(CAROL)!.culling).toContain('stops it after 90 minutes without activity');
    expect(of(ERIN_CLASSIC)).toMatchObject({ culls: null });
    expect(of(ERIN_CLASSIC)!.culling).toContain('covers JupyterLab and Code Editor apps only');
    // The domain is described once, each space once.
    expect(
      fake!
        .callsOf('DescribeDomain')
        .map((c) => c.input.DomainId)
        .sort(),
    ).toEqual(['d-shutdownoff1', 'd-shutdownon01']);
    expect(
      fake!
        .callsOf('DescribeSpace')
        .map((c) => c.input.SpaceName)
        .sort(),
    ).toEqual(['alice-lab', 'bob-lab', 'carol-code']);
  });

  it('reads only the domains named', async () => {
    const listed = await (await inventoryOf({ domains: ['d-shutdownon01'] })).list();
    expect(listed.map((i) => i.instanceId).sort()).toEqual([BOB, CAROL].map((a) => fake!.arnOf(a)).sort());
    expect(fake!.callsOf('ListApps').map((c) => c.input.DomainIdEquals)).toEqual(['d-shutdownon01']);
  });

  it('loses only the idle shutdown setting when DescribeDomain or DescribeSpace is denied, and says which action to allow', async () => {
    const inventory = await inventoryOf();
    fake!.denied.add('DescribeSpace');
    const noSpace = (await inventory.list()).find((i) => i.instanceId === fake!.arnOf(BOB))!;
    expect(noSpace.notebook).toMatchObject({ culls: true });
    expect(noSpace.notebook!.culling).toContain('after 60 minutes without activity');
    expect(noSpace.notebook!.culling).toContain("the space's own timeout could not be read: allow sagemaker:DescribeSpace");

    fake!.denied.add('DescribeDomain');
    const listed = await inventory.list();
    expect(listed).toHaveLength(4);
    const noDomain = listed.find((i) => i.instanceId === fake!.arnOf(ALICE))!;
    expect(noDomain.notebook).toEqual({
      platform: 'sagemaker-studio',
      culling: "SageMaker Studio idle shutdown: unknown, burnrate may not read the domain's setting (allow sagemaker:DescribeDomain)",
      culls: null,
    });
  });

  it('refuses with an error naming the IAM action when ListApps is denied', async () => {
    const inventory = await inventoryOf();
    fake!.denied.add('ListApps');
    const error = await inventory.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BurnrateError);
    expect(error).toMatchObject({ code: 'burnrate_aws_access_denied' });
    expect((error as BurnrateError).message).toContain('SageMaker in eu-west-1 denied sagemaker:ListApps');
    expect((error as BurnrateError).hint).toContain('Allow sagemaker:ListApps');
  });
});
