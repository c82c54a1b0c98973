import type { BurnrateError } from '../domain/errors.js';
import type { GpuInstance } from '../domain/gpu-inventory.js';

/** IAM actions a spot migration and its revert need, for the generated IAM policy. */
export const SPOT_PERMISSIONS = [
  'ec2:DescribeLaunchTemplateVersions',
  'ec2:CreateLaunchTemplateVersion',
  'ec2:ModifyLaunchTemplate',
] as const;
export type SpotPermission = (typeof SPOT_PERMISSIONS)[number];

/** The tag naming the launch template a workload is launched from (id `lt-...`). */
export const LAUNCH_TEMPLATE_TAG = 'burnrate:launch-template';
/** EC2 tags instances launched from a template with this one; used when burnrate's own tag is absent. */
export const AWS_LAUNCH_TEMPLATE_TAG = 'aws:ec2launchtemplate:id';

/**
 * What happened to the launch template:
 * migrated / reverted: a new default version is in place now; already-spot / already-on-demand:
 * the default already was what was asked, nothing changed; would-migrate / would-revert: a dry
 * run the cloud says would succeed.
 */
export type SpotOutcome = 'migrated' | 'already-spot' | 'would-migrate' | 'reverted' | 'already-on-demand' | 'would-revert';

export interface SpotChange {
  outcome: SpotOutcome;
  launchTemplate: string;
  /** The default version before the call; null on a dry run that read nothing. */
  previousVersion: string | null;
  /** The default version after the call (the new spot version on a migration). */
  currentVersion: string | null;
  detail: string;
}

/**
 * Moves a workload's launch template to spot capacity and back. The workload's next launch (its
 * auto scaling group, its job scheduler) uses the template's default version, so a migration is
 * a new version requesting spot made the default, and a revert makes the earlier default the
 * default again. Both are idempotent; failures are BurnrateErrors.
 */
export interface SpotMigrationPort {
  readonly provider: string;
  /**
   * Where its launch templates live, recorded with each migration so that a revert finds them again
   * after the instance is gone (a spot instance is reclaimed and relaunched under a new id):
   * `demo`, or `aws:<region>`.
   */
  readonly place: string;
  moveToSpot(launchTemplate: string, options: { dryRun: boolean; description: string }): Promise<SpotChange>;
  /** Makes `restoreVersion` (the default before the migration) the default again. */
  revertToOnDemand(launchTemplate: string, restoreVersion: string, options: { dryRun: boolean }): Promise<SpotChange>;
  /**
   * Why this instance's capacity cannot be moved, where the cloud fixes it and the port can tell
   * before anyone approves (an Azure VM outside a scale set with a Spot mix); undefined otherwise.
   */
  unsupported?(instance: GpuInstance): Promise<BurnrateError | undefined>;
}

/**
 * Every spot port of the installation: each instance goes to the one of its source and region
 * (the demo's in-memory templates for a demo instance, EC2 in the instance's region for one of
 * `gpu.inventory`), each migration back to the one it was made through.
 */
export interface SpotPorts {
  /** The port for an instance of the inventory; undefined where its provider has no launch templates burnrate can change. */
  forInstance(instance: GpuInstance): Promise<SpotMigrationPort | undefined>;
  /** The port of a recorded `place`; undefined when this installation has no such port (any more). */
  at(place: string): Promise<SpotMigrationPort | undefined>;
}

/** The launch template an instance's tags name: burnrate's tag first, then the one EC2 sets. */
export function launchTemplateOf(tags: Readonly<Record<string, string>>): string | null {
  for (const key of [LAUNCH_TEMPLATE_TAG, AWS_LAUNCH_TEMPLATE_TAG]) {
    const value = tags[key]?.trim();
    if (value) return value;
  }
  return null;
}
