import { EC2Client, StopInstancesCommand, paginateDescribeInstances, type Instance } from '@aws-sdk/client-ec2';
import { BurnrateError } from '../../../domain/errors.js';
import { explainEc2Error } from './ec2-errors.js';
import {
  decideStop,
  type InstanceActionPort,
  type InstanceLifecycle,
  type InstanceState,
  type StopResult,
} from '../../../ports/instance-port.js';
import { KeyedLock } from '../../keyed-lock.js';

export interface Ec2InstancePortOptions {
  region: string;
  /** A configured client (tests, custom credentials); by default one for `region` from the SDK's credential chain. */
  client?: EC2Client | undefined;
}

/** Ids per DescribeInstances call: keeps the query string well inside EC2's request size limit. */
const DESCRIBE_BATCH = 100;

/** Throttled calls (RequestLimitExceeded) are retried by the SDK, three attempts in all. */
const MAX_ATTEMPTS = 3;

/**
 * The instance action port over EC2. A stop reads the instance first and sends StopInstances
 * only for a running, unprotected one, so repeating a stop sends nothing; stops of one instance
 * are serialised in this process so that two concurrent clicks send one StopInstances. A dry
 * run asks EC2 itself (`DryRun: true`), which checks the permission without stopping anything.
 */
export class Ec2InstancePort implements InstanceActionPort {
  readonly provider = 'aws';
  private readonly client: EC2Client;
  private readonly region: string;
  private readonly stops = new KeyedLock();

  constructor(options: Ec2InstancePortOptions) {
    this.region = options.region;
    this.client = options.client ?? new EC2Client({ region: options.region, maxAttempts: MAX_ATTEMPTS });
  }

  async describe(ids: string[]): Promise<InstanceState[]> {
    const unique = [...new Set(ids)];
    const found = new Map<string, InstanceState>();
    try {
      for (let i = 0; i < unique.length; i += DESCRIBE_BATCH) {
        const pages = paginateDescribeInstances({ client: this.client }, { InstanceIds: unique.slice(i, i + DESCRIBE_BATCH) });
        for await (const page of pages)
          for (const reservation of page.Reservations ?? [])
            for (const instance of reservation.Instances ?? []) {
              const state = toInstanceState(instance);
              if (state) found.set(state.id, state);
            }
      }
    } catch (error) {
      throw explainEc2Error(error, 'ec2:DescribeInstances', this.region);
    }
    return ids.map((id) => {
      const state = found.get(id);
      if (!state)
        throw new BurnrateError('burnrate_ec2_instance_not_found', `EC2 in ${this.region} has no such instance: ${id}`, undefined, 1);
      return state;
    });
  }

  stop(id: string, options: { dryRun: boolean }): Promise<StopResult> {
    return this.stops.run(id, () => this.stopNow(id, options.dryRun));
  }

  private async stopNow(id: string, dryRun: boolean): Promise<StopResult> {
    const [instance] = await this.describe([id]);
    const decided = decideStop(instance!);
    if (decided) return decided;
    const previousState = instance!.state;
    if (dryRun) {
      try {
        await this.client.send(new StopInstancesCommand({ InstanceIds: [id], DryRun: true }));
      } catch (error) {
        // EC2 answers a permitted dry run with the DryRunOperation error, a forbidden one with UnauthorizedOperation.
        if ((error as { name?: string }).name === 'DryRunOperation')
          return {
            id,
            outcome: 'would-stop',
            previousState,
            detail: `EC2 confirms burnrate may stop ${id}; nothing was stopped (dry run).`,
          };
        throw explainEc2Error(error, 'ec2:StopInstances', this.region);
      }
      throw new BurnrateError(
        'burnrate_ec2_dry_run_ignored',
        `EC2 in ${this.region} answered a dry-run StopInstances for ${id} as if it ran.`,
        undefined,
        1,
      );
    }
    try {
      const answer = await this.client.send(new StopInstancesCommand({ InstanceIds: [id] }));
      const change = answer.StoppingInstances?.find((c) => c.InstanceId === id);
      const now = toLifecycle(change?.CurrentState?.Name);
      return { id, outcome: 'stopped', previousState, detail: `Stopped ${id}: it was ${previousState} and is now ${now}.` };
    } catch (error) {
      throw explainEc2Error(error, 'ec2:StopInstances', this.region);
    }
  }
}

function toInstanceState(instance: Instance): InstanceState | undefined {
  if (!instance.InstanceId) return undefined;
  const tags: Record<string, string> = {};
  for (const tag of instance.Tags ?? []) if (tag.Key !== undefined) tags[tag.Key] = tag.Value ?? '';
  return { id: instance.InstanceId, state: toLifecycle(instance.State?.Name), tags };
}

function toLifecycle(name: string | undefined): InstanceLifecycle {
  switch (name) {
    case 'pending':
    case 'running':
    case 'stopping':
    case 'stopped':
    case 'terminated':
      return name;
    // On its way to terminated: it cannot be stopped either.
    case 'shutting-down':
      return 'terminated';
    default:
      return 'unknown';
  }
}
