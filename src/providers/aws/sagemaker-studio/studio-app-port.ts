import { DeleteAppCommand, DescribeAppCommand, type DescribeAppResponse, type SageMakerClient } from '@aws-sdk/client-sagemaker';
import { BurnrateError } from '../../../domain/errors.js';
import {
  decideStop,
  type InstanceActionPort,
  type InstanceLifecycle,
  type InstanceState,
  type StopResult,
} from '../../../ports/instance-port.js';
import { KeyedLock } from '../../keyed-lock.js';
import { explainStudioError, studioTags } from './studio-calls.js';
import { spaceArnOf, studioAppRefOf, type StudioAppRef } from './studio-app-arn.js';

/** An app found: its answer, and whether it runs in a space or (Studio Classic) under a user profile. */
interface FoundApp {
  app: DescribeAppResponse;
  where: { SpaceName: string } | { UserProfileName: string };
}

/**
 * Stop of a SageMaker Studio app: DeleteApp, as Studio's own idle shutdown does. It reads the app
 * and its tags first and deletes only a running, unprotected app, so a second click deletes
 * nothing; clicks on one app are serialised in this process. SageMaker has no dry run: a dry run
 * reads the app and says what it would do.
 */
export class StudioAppPort implements InstanceActionPort {
  readonly provider = 'aws';
  private readonly stops = new KeyedLock();
  private readonly region: string;
  private readonly client: SageMakerClient;

  constructor(options: { region: string; client: SageMakerClient }) {
    this.region = options.region;
    this.client = options.client;
  }

  async describe(ids: string[]): Promise<InstanceState[]> {
    return Promise.all(ids.map(async (id) => (await this.read(id)).state));
  }

  stop(id: string, options: { dryRun: boolean }): Promise<StopResult> {
    return this.stops.run(id, () => this.stopNow(id, options.dryRun));
  }

  private async stopNow(id: string, dryRun: boolean): Promise<StopResult> {
    const { state, ref, found } = await this.read(id);
    const decided = decideStop(state);
    if (decided) return decided;
    const previousState = state.state;
    if (dryRun)
      return {
        id,
        outcome: 'would-stop',
        previousState,
        detail: `${ref.appType} app ${ref.owner} is running: burnrate would delete it (the space and its storage stay). Nothing was deleted (dry run; SageMaker has no dry run of its own).`,
      };
    try {
      await this.client.send(new DeleteAppCommand({ DomainId: ref.domainId, AppType: ref.appType, AppName: ref.appName, ...found.where }));
    } catch (error) {
      // Deleted between the read and the call (Studio's own idle shutdown, or another click).
      if ((error as { name?: string }).name === 'ResourceNotFound')
        return {
          id,
          outcome: 'already-stopped',
          previousState,
          detail: `${ref.appType} app ${ref.owner} is already deleted; nothing to do.`,
        };
      throw explainStudioError(error, 'sagemaker:DeleteApp', this.region);
    }
    return {
      id,
      outcome: 'stopped',
      previousState,
      detail: `Deleted ${ref.appType} app ${ref.owner}: the space and its storage stay; its owner starts it again from Studio.`,
    };
  }

  /** The app's state and tags (its space's and its own: burnrate:protect on either protects it). */
  private async read(id: string): Promise<{ state: InstanceState; ref: StudioAppRef; found: FoundApp }> {
    const ref = studioAppRefOf(id);
    if (!ref) throw new BurnrateError('burnrate_sagemaker_app_unknown', `${id} is not the ARN of a SageMaker Studio app.`, undefined, 1);
    const found = await this.find(ref);
    const tags = await studioTags(this.client, this.region, id, 'SpaceName' in found.where ? spaceArnOf(ref) : undefined);
    return { state: { id, state: lifecycleOf(found.app.Status), tags }, ref, found };
  }

  /** The app in its space, else (a Studio Classic app) under the user profile its ARN names: the ARN does not say which. */
  private async find(ref: StudioAppRef): Promise<FoundApp> {
    const base = { DomainId: ref.domainId, AppType: ref.appType, AppName: ref.appName };
    for (const where of [{ SpaceName: ref.owner }, { UserProfileName: ref.owner }]) {
      try {
        return { app: await this.client.send(new DescribeAppCommand({ ...base, ...where })), where };
      } catch (error) {
        if ((error as { name?: string }).name !== 'ResourceNotFound') throw explainStudioError(error, 'sagemaker:DescribeApp', this.region);
      }
    }
    throw new BurnrateError(
      'burnrate_sagemaker_app_not_found',
      `SageMaker in ${this.region} has no ${ref.appType} app ${ref.appName} of ${ref.owner} in domain ${ref.domainId}.`,
      'It was deleted (Studio keeps a deleted app listed for a while, then forgets it); nothing to stop.',
      1,
    );
  }
}

/** Studio's app states as instance states: an app being deleted or deleted is as good as stopped. */
function lifecycleOf(status: string | undefined): InstanceLifecycle {
  switch (status) {
    case 'InService':
      return 'running';
    case 'Pending':
      return 'pending';
    case 'Deleting':
      return 'stopping';
    case 'Deleted':
      return 'stopped';
    default:
      return 'unknown';
  }
}
