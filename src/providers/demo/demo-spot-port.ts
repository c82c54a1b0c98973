import { BurnrateError } from '../../domain/errors.js';
import type { SpotChange, SpotMigrationPort } from '../../ports/spot-port.js';

interface DemoTemplate {
  /** Whether each version requests spot; versions are numbered from 1. */
  versions: boolean[];
  defaultVersion: number;
}

/**
 * Launch templates in memory, for the demo and tests: the same rules as EC2 (a new version made
 * the default; a revert restores the earlier default; repeats change nothing) without a cloud.
 * Each template starts with version 1, on demand, as its default.
 */
export class DemoSpotPort implements SpotMigrationPort {
  readonly provider = 'demo';
  readonly place = 'demo';
  private readonly templates = new Map<string, DemoTemplate>();

  constructor(launchTemplates: readonly string[]) {
    for (const id of launchTemplates) this.templates.set(id, { versions: [false], defaultVersion: 1 });
  }

  /** Whether the template's default version requests spot (for tests and the console). */
  defaultsToSpot(launchTemplate: string): boolean {
    const t = this.template(launchTemplate);
    return t.versions[t.defaultVersion - 1]!;
  }

  async moveToSpot(launchTemplate: string, options: { dryRun: boolean }): Promise<SpotChange> {
    const t = this.template(launchTemplate);
    const previous = String(t.defaultVersion);
    if (t.versions[t.defaultVersion - 1])
      return {
        outcome: 'already-spot',
        launchTemplate,
        previousVersion: previous,
        currentVersion: previous,
        detail: `${launchTemplate} version ${previous} already requests spot capacity; nothing changed.`,
      };
    if (options.dryRun)
      return {
        outcome: 'would-migrate',
        launchTemplate,
        previousVersion: previous,
        currentVersion: previous,
        detail: `burnrate may add a spot version to ${launchTemplate} (default now ${previous}); nothing changed (dry run).`,
      };
    t.versions.push(true);
    t.defaultVersion = t.versions.length;
    return {
      outcome: 'migrated',
      launchTemplate,
      previousVersion: previous,
      currentVersion: String(t.defaultVersion),
      detail: `${launchTemplate}: version ${t.defaultVersion} requests spot capacity and is the default now (was ${previous}).`,
    };
  }

  async revertToOnDemand(launchTemplate: string, restoreVersion: string, options: { dryRun: boolean }): Promise<SpotChange> {
    const t = this.template(launchTemplate);
    const current = String(t.defaultVersion);
    const restore = Number(restoreVersion);
    if (!Number.isInteger(restore) || restore < 1 || restore > t.versions.length)
      throw new BurnrateError(
        'burnrate_ec2_launch_template_not_found',
        `The demo launch template ${launchTemplate} has no version ${restoreVersion}.`,
        undefined,
        1,
      );
    if (current === restoreVersion)
      return {
        outcome: 'already-on-demand',
        launchTemplate,
        previousVersion: current,
        currentVersion: current,
        detail: `${launchTemplate} already defaults to version ${current}; nothing changed.`,
      };
    if (options.dryRun)
      return {
        outcome: 'would-revert',
        launchTemplate,
        previousVersion: current,
        currentVersion: current,
        detail: `burnrate may make version ${restoreVersion} of ${launchTemplate} the default again; nothing changed (dry run).`,
      };
    t.defaultVersion = restore;
    return {
      outcome: 'reverted',
      launchTemplate,
      previousVersion: current,
      currentVersion: restoreVersion,
      detail: `${launchTemplate}: version ${restoreVersion} (on demand) is the default again (was ${current}).`,
    };
  }

  private template(id: string): DemoTemplate {
    const t = this.templates.get(id);
    if (!t)
      throw new BurnrateError(
        'burnrate_ec2_launch_template_not_found',
        `The demo has no launch template ${id}.`,
        'Check the burnrate:launch-template tag on the instance.',
        1,
      );
    return t;
  }
}
