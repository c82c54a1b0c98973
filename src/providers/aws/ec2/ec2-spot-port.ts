import {
  CreateLaunchTemplateVersionCommand,
  DescribeLaunchTemplateVersionsCommand,
  EC2Client,
  ModifyLaunchTemplateCommand,
  type LaunchTemplateVersion,
} from '@aws-sdk/client-ec2';
import { BurnrateError } from '../../../domain/errors.js';
import { explainEc2Error } from './ec2-errors.js';
import { KeyedLock } from '../../keyed-lock.js';
import type { SpotChange, SpotMigrationPort, SpotPermission } from '../../../ports/spot-port.js';

export interface Ec2SpotPortOptions {
  region: string;
  client?: EC2Client | undefined;
}

/**
 * Spot migrations over EC2 launch templates:
 *   move:   read the default version; if it already requests spot, nothing to do; else
 *           CreateLaunchTemplateVersion from it with InstanceMarketOptions { MarketType: spot }
 *           and ModifyLaunchTemplate to make the new version the default.
 *   revert: ModifyLaunchTemplate back to the default from before (the spot version stays, unused,
 *           as a record).
 * Calls for one template are serialised in this process; a dry run asks EC2 itself (DryRun).
 */
export class Ec2SpotPort implements SpotMigrationPort {
  readonly provider = 'aws';
  readonly place: string;
  private readonly client: EC2Client;
  private readonly region: string;
  private readonly locks = new KeyedLock();

  constructor(options: Ec2SpotPortOptions) {
    this.region = options.region;
    this.place = ec2SpotPlace(options.region);
    this.client = options.client ?? new EC2Client({ region: options.region, maxAttempts: 3 });
  }

  moveToSpot(launchTemplate: string, options: { dryRun: boolean; description: string }): Promise<SpotChange> {
    return this.locks.run(launchTemplate, async () => {
      const current = await this.defaultVersion(launchTemplate);
      const previous = String(current.VersionNumber);
      if (current.LaunchTemplateData?.InstanceMarketOptions?.MarketType === 'spot')
        return {
          outcome: 'already-spot',
          launchTemplate,
          previousVersion: previous,
          currentVersion: previous,
          detail: `${launchTemplate} version ${previous} already requests spot capacity; nothing changed.`,
        };
      const create = (dryRun: boolean) =>
        new CreateLaunchTemplateVersionCommand({
          LaunchTemplateId: launchTemplate,
          SourceVersion: previous,
          VersionDescription: options.description.slice(0, 255),
          LaunchTemplateData: {
            InstanceMarketOptions: {
              MarketType: 'spot',
              SpotOptions: { SpotInstanceType: 'one-time', InstanceInterruptionBehavior: 'terminate' },
            },
          },
          DryRun: dryRun,
        });
      if (options.dryRun) {
        await this.dryRun(() => this.client.send(create(true)), 'ec2:CreateLaunchTemplateVersion');
        return {
          outcome: 'would-migrate',
          launchTemplate,
          previousVersion: previous,
          currentVersion: previous,
          detail: `EC2 confirms burnrate may add a spot version to ${launchTemplate} (default now ${previous}); nothing changed (dry run).`,
        };
      }
      const created = await this.call(() => this.client.send(create(false)), 'ec2:CreateLaunchTemplateVersion');
      const version = created.LaunchTemplateVersion?.VersionNumber;
      if (version === undefined)
        throw new BurnrateError(
          'burnrate_ec2_failed',
          `EC2 in ${this.region} created a version of ${launchTemplate} without saying its number.`,
          undefined,
          1,
        );
      await this.call(
        () => this.client.send(new ModifyLaunchTemplateCommand({ LaunchTemplateId: launchTemplate, DefaultVersion: String(version) })),
        'ec2:ModifyLaunchTemplate',
      );
      return {
        outcome: 'migrated',
        launchTemplate,
        previousVersion: previous,
        currentVersion: String(version),
        detail: `${launchTemplate}: version ${version} requests spot capacity and is the default now (was ${previous}).`,
      };
    });
  }

  revertToOnDemand(launchTemplate: string, restoreVersion: string, options: { dryRun: boolean }): Promise<SpotChange> {
    return this.locks.run(launchTemplate, async () => {
      const current = String((await this.defaultVersion(launchTemplate)).VersionNumber);
      if (current === restoreVersion)
        return {
          outcome: 'already-on-demand',
          launchTemplate,
          previousVersion: current,
          currentVersion: current,
          detail: `${launchTemplate} already defaults to version ${current}; nothing changed.`,
        };
      const modify = (dryRun: boolean) =>
        new ModifyLaunchTemplateCommand({ LaunchTemplateId: launchTemplate, DefaultVersion: restoreVersion, DryRun: dryRun });
      if (options.dryRun) {
        await this.dryRun(() => this.client.send(modify(true)), 'ec2:ModifyLaunchTemplate');
        return {
          outcome: 'would-revert',
          launchTemplate,
          previousVersion: current,
          currentVersion: current,
          detail: `EC2 confirms burnrate may make version ${restoreVersion} of ${launchTemplate} the default again; nothing changed (dry run).`,
        };
      }
      await this.call(() => this.client.send(modify(false)), 'ec2:ModifyLaunchTemplate');
      return {
        outcome: 'reverted',
        launchTemplate,
        previousVersion: current,
        currentVersion: restoreVersion,
        detail: `${launchTemplate}: version ${restoreVersion} (on demand) is the default again (was ${current}).`,
      };
    });
  }

  private async defaultVersion(launchTemplate: string): Promise<LaunchTemplateVersion> {
    const answer = await this.call(
      () => this.client.send(new DescribeLaunchTemplateVersionsCommand({ LaunchTemplateId: launchTemplate, Versions: ['$Default'] })),
      'ec2:DescribeLaunchTemplateVersions',
    );
    const version = answer.LaunchTemplateVersions?.[0];
    if (!version || version.VersionNumber === undefined)
      throw new BurnrateError(
        'burnrate_ec2_launch_template_not_found',
        `EC2 in ${this.region} returned no default version of ${launchTemplate}.`,
        'Check the burnrate:launch-template tag on the instance.',
        1,
      );
    return version;
  }

  private async call<T>(send: () => Promise<T>, permission: SpotPermission): Promise<T> {
    try {
      return await send();
    } catch (error) {
      throw explainEc2Error(error, permission, this.region);
    }
  }

  /** EC2 answers a permitted dry run with the DryRunOperation error; anything else is a real failure. */
  private async dryRun(send: () => Promise<unknown>, permission: SpotPermission): Promise<void> {
    try {
      await send();
    } catch (error) {
      if ((error as { name?: string }).name === 'DryRunOperation') return;
      throw explainEc2Error(error, permission, this.region);
    }
    throw new BurnrateError(
      'burnrate_ec2_dry_run_ignored',
      `EC2 in ${this.region} answered a dry run of ${permission} as if it ran.`,
      undefined,
      1,
    );
  }
}

/** The place of EC2's launch templates in a region, as recorded with a migration. */
export function ec2SpotPlace(region: string): string {
  return `aws:${region}`;
}

/** The region of an EC2 place; null when the place is not EC2's. */
export function regionOfEc2SpotPlace(place: string): string | null {
  return /^aws:([a-z]{2}(-[a-z]+)+-\d+)$/.exec(place)?.[1] ?? null;
}
