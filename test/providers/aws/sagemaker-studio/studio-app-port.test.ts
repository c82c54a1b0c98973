import { SageMakerClient } from '@aws-sdk/client-sagemaker';
import { afterEach, describe, expect, it } from 'vitest';
import { StudioAppPort } from '../../../../src/providers/aws/sagemaker-studio/studio-app-port.js';
import { BurnrateError } from '../../../../src/domain/errors.js';
import { FakeSageMaker } from '../../../fakes/fake-sagemaker.js';
import { TEST_AWS_CREDENTIALS } from '../../../support/aws-test-env.js';
import { ALICE, DOMAINS, ERIN_CLASSIC, SPACES, studioApps } from './studio-fixture.js';

// Stop of a Studio app is DeleteApp, as Studio's own idle shutdown does: read first, a dry run
// deletes nothing, a second click deletes nothing more, a protected app is never deleted.

let fake: FakeSageMaker | undefined;
afterEach(async () => {
  fake?.assertNoUnexpectedCalls();
  await fake?.close();
  fake = undefined;
});

async function portWith(spaces = SPACES) {
  fake = await FakeSageMaker.start({ domains: DOMAINS, spaces, apps: studioApps() });
  const client = new SageMakerClient({ region: 'eu-west-1', endpoint: fake.endpoint, credentials: TEST_AWS_CREDENTIALS, maxAttempts: 1 });
  return new StudioAppPort({ region: 'eu-west-1', client });
}

describe('stopping a SageMaker Studio app', () => {
  it('deletes a running app once: a dry run deletes nothing, a second stop finds it deleting', async () => {
    const port = await portWith();
    const arn = fake!.arnOf(ALICE);
    expect(await port.describe([arn])).toEqual([{ id: arn, state: 'running', tags: { team: 'research', 'burnrate:owner': 'U0ALICE' } }]);

    const dry = await port.stop(arn, { dryRun: true });
    expect(dry).toMatchObject({ outcome: 'would-stop', previousState: 'running' });
    expect(dry.detail).toContain('Nothing was deleted (dry run');
    expect(fake!.callsOf('DeleteApp')).toHaveLength(0);

    const [first, second] = await Promise.all([port.stop(arn, { dryRun: false }), port.stop(arn, { dryRun: false })]);
    expect(first).toMatchObject({ outcome: 'stopped', previousState: 'running' });
    expect(first.detail).toContain('the space and its storage stay');
    expect(second).toMatchObject({ outcome: 'already-stopped', previousState: 'stopping' });
    expect(fake!.callsOf('DeleteApp').map((c) => c.input)).toEqual([
      { DomainId: ALICE.domainId, AppType: 'JupyterLab', AppName: 'default', SpaceName: 'alice-lab' },
    ]);
  });

  it('finds a Studio Classic app under its user profile, which its ARN names like a space', async () => {
    const port = await portWith();
    const result = await port.stop(fake!.arnOf(ERIN_CLASSIC), { dryRun: false });
    expect(result.outcome).toBe('stopped');
    expect(fake!.callsOf('DeleteApp').map((c) => c.input)).toEqual([
      { DomainId: ERIN_CLASSIC.domainId, AppType: 'KernelGateway', AppName: 'pytorch-gpu', UserProfileName: 'erin' },
    ]);
  });

  it('never deletes an app whose space is tagged burnrate:protect=true', async () => {
    const protectedSpaces = SPACES.map((s) => (s.name === 'alice-lab' ? { ...s, tags: { ...s.tags, 'burnrate:protect': 'true' } } : s));
    const port = await portWith(protectedSpaces);
    const result = await port.stop(fake!.arnOf(ALICE), { dryRun: false });
    expect(result.outcome).toBe('refused');
    expect(fake!.callsOf('DeleteApp')).toHaveLength(0);
  });

  it('names sagemaker:DeleteApp when it is denied, after reading the app', async () => {
    const port = await portWith();
    fake!.denied.add('DeleteApp');
    const error = await port.stop(fake!.arnOf(ALICE), { dryRun: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BurnrateError);
    expect((error as BurnrateError).message).toContain('denied sagemaker:DeleteApp');
  });
});
