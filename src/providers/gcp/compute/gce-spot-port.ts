import type {
  GlobalOperationsClient,
  InstanceGroupManagersClient,
  InstanceTemplatesClient,
  ZoneOperationsClient,
  protos,
} from '@google-cloud/compute';
import { BurnrateError } from '../../../domain/errors.js';
import type { SpotChange, SpotMigrationPort } from '../../../ports/spot-port.js';
import { KeyedLock } from '../../keyed-lock.js';
import { explainGoogleError } from '../gcp-errors.js';
import { lastSegment } from './gce-instance-id.js';
import { FOLLOW_DEFAULTS, followOperation, type Operation } from './gce-operation.js';
import { GCE_SPOT } from './gce-permissions.js';

type Template = protos.google.cloud.compute.v1.IInstanceTemplate;

export interface GceSpotPortOptions {
  groups: InstanceGroupManagersClient;
  templates: InstanceTemplatesClient;
  zoneOperations: ZoneOperationsClient;
  globalOperations: GlobalOperationsClient;
  pollDelaysMs?: readonly number[];
}

/** Where a Compute Engine spot migration is recorded: one port serves every project and zone. */
export const GCE_SPOT_PLACE = 'gcp';

/** A managed instance group as burnrate names it: the group's path (its zone's). */
const GROUP = /^projects\/([^/]+)\/zones\/([^/]+)\/instanceGroupManagers\/([a-z]([-a-z0-9]{0,61}[a-z0-9])?)$/;

interface Group {
  project: string;
  zone: string;
  name: string;
}

function parseGroup(ref: string): Group {
  const match = GROUP.exec(ref);
  if (!match)
    throw new BurnrateError(
      'burnrate_gce_group_invalid',
      `Not a zonal managed instance group: ${ref}`,
      'Label the VM burnrate-launch-template with its group as projects/<project>/zones/<zone>/instanceGroupManagers/<name>, or let burnrate read the group that created it.',
      2,
    );
  return { project: match[1]!, zone: match[2]!, name: match[3]! };
}

/**
 * Moves a managed instance group's VMs to SPOT capacity and back, as EC2 moves a launch template:
 * the group's next VMs (its next recreation or scale-out) come from a SPOT copy of its instance
 * template, made the group's template; a revert makes the template from before the group's again.
 * Instance templates cannot change: the copy is a new template (`<template>-spot`), kept after a
 * revert as a record. Only VMs in a group are moved (a standalone VM would have to be deleted and
 * recreated); the approval's rules (checkpointing declared, two people above the configured
 * saving) are the same as EC2's. Calls for one group are serialised in this process; a dry run
 * only reads.
 */
export class GceSpotPort implements SpotMigrationPort {
  readonly provider = 'gcp';
  readonly place = GCE_SPOT_PLACE;
  private readonly locks = new KeyedLock();

  constructor(private readonly options: GceSpotPortOptions) {}

  moveToSpot(ref: string, options: { dryRun: boolean; description: string }): Promise<SpotChange> {
    return this.locks.run(ref, async () => {
      const group = parseGroup(ref);
      const previous = await this.templateOf(group);
      const template = await this.template(group.project, previous);
      if (isSpot(template))
        return unchanged('already-spot', ref, previous, `${group.name} already makes SPOT VMs from ${previous}; nothing changed.`);
      if (options.dryRun)
        return unchanged(
          'would-migrate',
          ref,
          previous,
          `${group.name} would make its next VMs SPOT from a copy of ${previous}; nothing changed (dry run: Compute Engine has none, so burnrate only read the group).`,
        );
      const spot = spotNameOf(previous);
      const existing = await this.template(group.project, spot, true);
      if (!existing) {
        const copy: Template = {
          name: spot,
          description: options.description.slice(0, 2048),
          properties: {
            ...template.properties,
            scheduling: {
              ...template.properties?.scheduling,
              provisioningModel: 'SPOT',
              preemptible: true,
              automaticRestart: false,
              onHostMaintenance: 'TERMINATE',
              instanceTerminationAction: 'STOP',
            },
          },
        };
        const [created] = await this.call(
          () => this.options.templates.insert({ project: group.project, instanceTemplateResource: copy }),
          group,
          'insert',
        );
        await this.follow(group, created.latestResponse as Operation, `create the SPOT template ${spot}`, true);
      } else if (!isSpot(existing))
        throw new BurnrateError(
          'burnrate_gce_template_taken',
          `An instance template named ${spot} exists and is not SPOT: burnrate will not use it.`,
          'Rename or delete it, then approve again.',
          1,
        );
      await this.setTemplate(group, spot);
      return {
        outcome: 'migrated',
        launchTemplate: ref,
        previousVersion: previous,
        currentVersion: spot,
        detail: `${group.name} makes its next VMs SPOT from ${spot} now (was ${previous}); the VMs running keep going until the group recreates them.`,
      };
    });
  }

  revertToOnDemand(ref: string, restore: string, options: { dryRun: boolean }): Promise<SpotChange> {
    return this.locks.run(ref, async () => {
      const group = parseGroup(ref);
      const current = await this.templateOf(group);
      if (current === restore)
        return unchanged('already-on-demand', ref, current, `${group.name} already uses ${current}; nothing changed.`);
      if (options.dryRun)
        return unchanged('would-revert', ref, current, `${group.name} would use ${restore} again; nothing changed (dry run).`);
      await this.template(group.project, restore);
      await this.setTemplate(group, restore);
      return {
        outcome: 'reverted',
        launchTemplate: ref,
        previousVersion: current,
        currentVersion: restore,
        detail: `${group.name} makes its next VMs from ${restore} (standard) again (was ${current}).`,
      };
    });
  }

  /** The name of the instance template the group makes its VMs from now. */
  private async templateOf(group: Group): Promise<string> {
    const [manager] = await this.call(
      () => this.options.groups.get({ project: group.project, zone: group.zone, instanceGroupManager: group.name }),
      group,
      'get',
    );
    const name = lastSegment(manager.instanceTemplate);
    if (!name || !/\/global\/instanceTemplates\//.test(manager.instanceTemplate ?? ''))
      throw new BurnrateError(
        'burnrate_gce_group_unsupported',
        `${group.name} makes its VMs from ${manager.instanceTemplate ?? 'no template'}: burnrate moves only groups with one global instance template.`,
        undefined,
        1,
      );
    return name;
  }

  private async template(project: string, name: string, mayBeMissing?: false): Promise<Template>;
  private async template(project: string, name: string, mayBeMissing: true): Promise<Template | undefined>;
  private async template(project: string, name: string, mayBeMissing = false): Promise<Template | undefined> {
    try {
      const [template] = await this.options.templates.get({ project, instanceTemplate: name });
      return template;
    } catch (error) {
      const code = Number((error as { code?: unknown }).code);
      if (mayBeMissing && (code === 5 || code === 404)) return undefined;
      throw explainGoogleError(error, {
        ...GCE_SPOT,
        permission: 'compute.instanceTemplates.get',
        service: 'Compute Engine',
        resource: `instance template ${name} in ${project}`,
      });
    }
  }

  private async setTemplate(group: Group, template: string): Promise<void> {
    const [operation] = await this.call(
      () =>
        this.options.groups.setInstanceTemplate({
          project: group.project,
          zone: group.zone,
          instanceGroupManager: group.name,
          instanceGroupManagersSetInstanceTemplateRequestResource: {
            instanceTemplate: `projects/${group.project}/global/instanceTemplates/${template}`,
          },
        }),
      group,
      'update',
    );
    await this.follow(group, operation.latestResponse as Operation, `make ${template} the template of ${group.name}`, false);
  }

  private follow(group: Group, first: Operation, what: string, global: boolean): Promise<boolean> {
    const read = async (operation: string) => {
      const [answer] = await this.call(
        () =>
          global
            ? this.options.globalOperations.get({ project: group.project, operation })
            : this.options.zoneOperations.get({ project: group.project, zone: group.zone, operation }),
        group,
        global ? 'globalOperations' : 'zoneOperations',
      );
      return answer;
    };
    return followOperation(first, read, {
      delaysMs: this.options.pollDelaysMs ?? FOLLOW_DEFAULTS.delaysMs,
      followMs: FOLLOW_DEFAULTS.followMs,
      what,
    });
  }

  private async call<T>(send: () => Promise<T>, group: Group, verb: keyof typeof PERMISSION_OF): Promise<T> {
    try {
      return await send();
    } catch (error) {
      throw explainGoogleError(error, {
        ...GCE_SPOT,
        permission: PERMISSION_OF[verb],
        service: 'Compute Engine',
        resource: `${group.name} in ${group.project}/${group.zone}`,
      });
    }
  }
}

const PERMISSION_OF = {
  get: 'compute.instanceGroupManagers.get',
  update: 'compute.instanceGroupManagers.update',
  insert: 'compute.instanceTemplates.create',
  globalOperations: 'compute.globalOperations.get',
  zoneOperations: 'compute.zoneOperations.get',
} as const;

function isSpot(template: Template): boolean {
  const scheduling = template.properties?.scheduling;
  return String(scheduling?.provisioningModel) === 'SPOT' || scheduling?.preemptible === true;
}

/** The SPOT copy's name: the template's, `-spot` after it, within Compute Engine's 63 characters. */
function spotNameOf(template: string): string {
  return `${template.slice(0, 58).replace(/-+$/, '')}-spot`;
}

function unchanged(outcome: SpotChange['outcome'], ref: string, template: string, detail: string): SpotChange {
  return { outcome, launchTemplate: ref, previousVersion: template, currentVersion: template, detail };
}
