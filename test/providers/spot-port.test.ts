import { EC2Client } from '@aws-sdk/client-ec2';
import { describe, expect, it } from 'vitest';
import { DemoSpotPort } from '../../src/providers/demo/demo-spot-port.js';
import { Ec2SpotPort } from '../../src/providers/aws/ec2/ec2-spot-port.js';
import { launchTemplateOf, type SpotMigrationPort } from '../../src/ports/spot-port.js';
import { FakeEc2 } from '../fakes/fake-ec2.js';
import { caughtBurnrateError, oneAwsFakePerTest, TEST_AWS_CREDENTIALS } from '../support/aws-test-env.js';

const REGION = 'eu-central-1';
const LT = 'lt-0a3f9c1e7d2b4a6c8';
const MISSING = 'lt-0fffffffffffffff0';

const aws = oneAwsFakePerTest<FakeEc2>();

async function ec2Port(): Promise<{ port: Ec2SpotPort; ec2: FakeEc2 }> {
  aws.started = await FakeEc2.start({
    launchTemplates: [{ id: LT, name: 'research-train', versions: [{ instanceType: 'p4d.24xlarge', spot: false }], defaultVersion: 1 }],
  });
  const client = new EC2Client({ region: REGION, endpoint: aws.started.endpoint, credentials: TEST_AWS_CREDENTIALS, maxAttempts: 3 });
  return { port: new Ec2SpotPort({ region: REGION, client }), ec2: aws.started };
}

describe('Ec2SpotPort (real SDK, fake EC2 query API)', () => {
  it('adds a spot version from the default and makes it the default; a second move changes nothing', async () => {
    const { port, ec2 } = await ec2Port();
    const moved = await port.moveToSpot(LT, { dryRun: false, description: 'burnrate: spot for research-train-fra' });
    expect(moved).toMatchObject({ outcome: 'migrated', previousVersion: '1', currentVersion: '2' });
    const create = ec2.callsOf('CreateLaunchTemplateVersion')[0]!;
    expect(create.params).toMatchObject({
      LaunchTemplateId: LT,
      SourceVersion: '1',
      'LaunchTemplateData.InstanceMarketOptions.MarketType': 'spot',
      VersionDescription: 'burnrate: spot for research-train-fra',
    });
    expect(create.region).toBe(REGION);
    expect(ec2.callsOf('ModifyLaunchTemplate')[0]!.params).toMatchObject({ LaunchTemplateId: LT, SetDefaultVersion: '2' });
    expect(ec2.launchTemplates.get(LT)).toMatchObject({
      defaultVersion: 2,
      versions: [{ spot: false }, { spot: true, instanceType: 'p4d.24xlarge' }],
    });

    const again = await port.moveToSpot(LT, { dryRun: false, description: 'again' });
    expect(again.outcome).toBe('already-spot');
    expect(ec2.callsOf('CreateLaunchTemplateVersion')).toHaveLength(1);
  });

  it('reverts to the earlier default and, repeated, changes nothing', async () => {
    const { port, ec2 } = await ec2Port();
    await port.moveToSpot(LT, { dryRun: false, description: 'x' });
    const reverted = await port.revertToOnDemand(LT, '1', { dryRun: false });
    expect(reverted).toMatchObject({ outcome: 'reverted', previousVersion: '2', currentVersion: '1' });
    expect(ec2.launchTemplates.get(LT)?.defaultVersion).toBe(1);
    expect((await port.revertToOnDemand(LT, '1', { dryRun: false })).outcome).toBe('already-on-demand');
    expect(ec2.callsOf('ModifyLaunchTemplate', { succeeded: true })).toHaveLength(2);
  });

  it('a dry run asks EC2 (DryRun=true) and changes nothing', async () => {
    const { port, ec2 } = await ec2Port();
    const result = await port.moveToSpot(LT, { dryRun: true, description: 'x' });
    expect(result.outcome).toBe('would-migrate');
    expect(ec2.callsOf('CreateLaunchTemplateVersion', { dryRun: true })).toHaveLength(1);
    expect(ec2.callsOf('CreateLaunchTemplateVersion', { dryRun: false })).toHaveLength(0);
    expect(ec2.launchTemplates.get(LT)).toMatchObject({ defaultVersion: 1, versions: [{ spot: false }] });
  });

  it('names the missing permission and the unknown template', async () => {
    const { port, ec2 } = await ec2Port();
    ec2.deny('ec2:CreateLaunchTemplateVersion');
    const denied = await caughtBurnrateError(port.moveToSpot(LT, { dryRun: false, description: 'x' }));
    expect(denied.code).toBe('burnrate_ec2_access_denied');
    expect(denied.message).toContain('ec2:CreateLaunchTemplateVersion');
    expect(denied.hint).toContain('ec2:ModifyLaunchTemplate');
    expect(ec2.launchTemplates.get(LT)?.versions).toHaveLength(1);
    const missing = await caughtBurnrateError(port.moveToSpot(MISSING, { dryRun: false, description: 'x' }));
    expect(missing.code).toBe('burnrate_ec2_launch_template_not_found');
    expect(missing.hint).toContain('burnrate:launch-template');
  });
});

describe('DemoSpotPort follows the same rules', () => {
  it('moves, refuses to move twice, reverts, and dry-runs without changing anything', async () => {
    const port: SpotMigrationPort & { defaultsToSpot(id: string): boolean } = new DemoSpotPort([LT]);
    expect((await port.moveToSpot(LT, { dryRun: true, description: '' })).outcome).toBe('would-migrate');
    expect(port.defaultsToSpot(LT)).toBe(false);
    expect(await port.moveToSpot(LT, { dryRun: false, description: '' })).toMatchObject({
      outcome: 'migrated',
      previousVersion: '1',
      currentVersion: '2',
    });
    expect(port.defaultsToSpot(LT)).toBe(true);
    expect((await port.moveToSpot(LT, { dryRun: false, description: '' })).outcome).toBe('already-spot');
    expect((await port.revertToOnDemand(LT, '1', { dryRun: false })).outcome).toBe('reverted');
    expect(port.defaultsToSpot(LT)).toBe(false);
    expect((await caughtBurnrateError(port.moveToSpot(MISSING, { dryRun: false, description: '' }))).code).toBe(
      'burnrate_ec2_launch_template_not_found',
    );
  });

  it("reads the launch template from burnrate's tag, else the one EC2 sets", () => {
    expect(launchTemplateOf({ 'burnrate:launch-template': LT, 'aws:ec2launchtemplate:id': MISSING })).toBe(LT);
    expect(launchTemplateOf({ 'aws:ec2launchtemplate:id': MISSING })).toBe(MISSING);
    expect(launchTemplateOf({ Name: 'x' })).toBeNull();
  });
});
