import type { InstancesClient, ZoneOperationsClient, protos } from '@google-cloud/compute';
import { BurnrateError } from '../../../domain/errors.js';
import { isProtected } from '../../../domain/gpu-inventory.js';
import {
  decideStop,
  type InstanceActionPort,
  type InstanceLifecycle,
  type InstanceState,
  type StopResult,
} from '../../../ports/instance-port.js';
import { KeyedLock } from '../../keyed-lock.js';
import { explainGoogleError } from '../gcp-errors.js';
import { parseGceInstanceId, type GceInstanceKey } from './gce-instance-id.js';
import { GCE_PROTECT_LABEL, tagsOfLabels } from './gce-labels.js';
import { GCE_GET, GCE_OPERATION, GCE_STOP } from './gce-permissions.js';
import { FOLLOW_DEFAULTS, followOperation, type Operation } from './gce-operation.js';

type Instance = protos.google.cloud.compute.v1.IInstance;

export interface GceInstancePortOptions {
  instances: InstancesClient;
  operations: ZoneOperationsClient;
  /** The projects whose VMs with local SSDs may be stopped (a stop discards their data); any other such VM is refused. */
  discardLocalSsdIn: ReadonlySet<string>;
  /** Waits between reads of the stop's zone operation: the first read is at once, the last wait repeats. */
  pollDelaysMs?: readonly number[];
  /** How long a stop's operation is followed before burnrate answers that it is still under way. */
  followMs?: number;
}

/**
 * The instance action port over Compute Engine. A stop reads the VM first (instances.get) and
 * sends instances.stop only for a running, unprotected one, so repeating a stop sends nothing;
 * stops of one VM are serialised in this process so that two concurrent clicks send one stop.
 * The stop's zone operation is read until DONE, so "Stopped" means Compute Engine did it (or its
 * error is said). Compute Engine has no dry run: a dry run reads the VM and says what would happen.
 */
export class GceInstancePort implements InstanceActionPort {
  readonly provider = 'gcp';
  private readonly stops = new KeyedLock();

  constructor(private readonly options: GceInstancePortOptions) {}

  async describe(ids: string[]): Promise<InstanceState[]> {
    return Promise.all(ids.map(async (id) => stateOf(id, await this.read(parseGceInstanceId(id)))));
  }

  stop(id: string, options: { dryRun: boolean }): Promise<StopResult> {
    return this.stops.run(id, () => this.stopNow(id, options.dryRun));
  }

  private async stopNow(id: string, dryRun: boolean): Promise<StopResult> {
    const key = parseGceInstanceId(id);
    const instance = await this.read(key);
    const state = stateOf(id, instance);
    const name = instance.name ?? key.id;
    if (isProtected(state.tags) && state.state !== 'stopped' && state.state !== 'stopping')
      return {
        id,
        outcome: 'refused',
        previousState: state.state,
        detail: `${name} is labelled ${GCE_PROTECT_LABEL}=true, so burnrate will not stop it. Remove the label to allow stops.`,
      };
    const decided = decideStop(state);
    if (decided) return { ...decided, detail: decided.detail.replace(id, name) };
    const localSsds = (instance.disks ?? []).filter((d) => String(d.type) === 'SCRATCH').length;
    if (localSsds > 0 && !this.options.discardLocalSsdIn.has(key.project))
      return {
        id,
        outcome: 'refused',
        previousState: state.state,
        detail: `${name} has ${localSsds} local SSD${localSsds > 1 ? 's' : ''}, whose data a stop discards; burnrate does not stop it. Set discardLocalSsd: true on the gce inventory of ${key.project} in burnrate.yml to allow it.`,
      };
    if (dryRun)
      return {
        id,
        outcome: 'would-stop',
        previousState: state.state,
        detail: `${name} is running and may be stopped; nothing was stopped (dry run: Compute Engine has none, so burnrate only read the VM).`,
      };
    const operation = await this.send(key, localSsds > 0);
    const done = await this.follow(key, operation, name);
    return {
      id,
      outcome: 'stopped',
      previousState: state.state,
      detail: done
        ? `Stopped ${name}: it was ${state.state} and Compute Engine has stopped it.`
        : `Stopping ${name}: it was ${state.state}; Compute Engine is still stopping it (operation ${operation.name}).`,
    };
  }

  private async read(key: GceInstanceKey): Promise<Instance> {
    try {
      const [instance] = await this.options.instances.get({ project: key.project, zone: key.zone, instance: key.id });
      return instance;
    } catch (error) {
      if (Number((error as { code?: unknown }).code) === 5 || Number((error as { code?: unknown }).code) === 404)
        throw new BurnrateError(
          'burnrate_gce_instance_not_found',
          `Compute Engine has no VM ${key.id} in ${key.project}/${key.zone} (deleted?)`,
          undefined,
          1,
        );
      throw explainGoogleError(error, { ...GCE_GET, service: 'Compute Engine', resource: `VM ${key.id} in ${key.project}/${key.zone}` });
    }
  }

  private async send(key: GceInstanceKey, discardLocalSsd: boolean): Promise<Operation> {
    try {
      const [answer] = await this.options.instances.stop({
        project: key.project,
        zone: key.zone,
        instance: key.id,
        ...(discardLocalSsd ? { discardLocalSsd: true } : {}),
      });
      return answer.latestResponse as Operation;
    } catch (error) {
      throw explainGoogleError(error, { ...GCE_STOP, service: 'Compute Engine', resource: `VM ${key.id} in ${key.project}/${key.zone}` });
    }
  }

  /** Reads the stop's zone operation until DONE: true when done, false when still running after `followMs`. */
  private follow(key: GceInstanceKey, first: Operation, name: string): Promise<boolean> {
    const read = async (operation: string) => {
      try {
        const [answer] = await this.options.operations.get({ project: key.project, zone: key.zone, operation });
        return answer;
      } catch (error) {
        throw explainGoogleError(error, { ...GCE_OPERATION, service: 'Compute Engine', resource: `operation ${operation}` });
      }
    };
    return followOperation(first, read, {
      delaysMs: this.options.pollDelaysMs ?? FOLLOW_DEFAULTS.delaysMs,
      followMs: this.options.followMs ?? FOLLOW_DEFAULTS.followMs,
      what: `stop ${name}`,
    });
  }
}

function stateOf(id: string, instance: Instance): InstanceState {
  return { id, state: lifecycleOf(String(instance.status ?? '')), tags: tagsOfLabels(instance.labels as Record<string, string>) };
}

/** Compute Engine's statuses as the shared lifecycle: a suspended VM is off, as a stopped one. */
function lifecycleOf(status: string): InstanceLifecycle {
  switch (status) {
    case 'PROVISIONING':
    case 'STAGING':
      return 'pending';
    case 'RUNNING':
      return 'running';
    case 'STOPPING':
    case 'SUSPENDING':
      return 'stopping';
    case 'STOPPED':
    case 'SUSPENDED':
    case 'TERMINATED':
      return 'stopped';
    default:
      return 'unknown';
  }
}
