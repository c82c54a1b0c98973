import { BurnrateError } from '../../domain/errors.js';
import {
  decideStop,
  type InstanceActionPort,
  type InstanceState,
  type StopPermission,
  type StopResult,
} from '../../ports/instance-port.js';

export interface DemoInstancePortOptions {
  /** Permissions the demo pretends burnrate lacks, to show what a missing IAM grant looks like. */
  denied?: readonly StopPermission[];
}

/**
 * The instance action port over an in-memory fleet, for the demo and tests. It follows the same
 * rules as EC2: a protected instance is refused, a dry run checks the permission and changes
 * nothing, and a second stop finds the instance stopped and does nothing. A stop completes at
 * once (EC2 passes through "stopping"). The state is checked again right before it changes,
 * with no await in between, so concurrent stops of one instance stop it once.
 */
export class DemoInstancePort implements InstanceActionPort {
  readonly provider = 'demo';
  /** Ids in the order the demo stopped them: one entry per real stop. */
  readonly stopped: string[] = [];
  private readonly instances = new Map<string, InstanceState>();
  private readonly denied: ReadonlySet<StopPermission>;

  constructor(instances: readonly InstanceState[], options: DemoInstancePortOptions = {}) {
    for (const i of instances) this.instances.set(i.id, { id: i.id, state: i.state, tags: { ...i.tags } });
    this.denied = new Set(options.denied ?? []);
  }

  async describe(ids: string[]): Promise<InstanceState[]> {
    this.authorize('ec2:DescribeInstances');
    const missing = ids.filter((id) => !this.instances.has(id));
    if (missing.length > 0)
      throw new BurnrateError(
        'burnrate_ec2_instance_not_found',
        `The demo fleet has no such instance: ${missing.join(', ')}`,
        'Check the instance id; the demo fleet only knows its own instances.',
        1,
      );
    return ids.map((id) => copy(this.instances.get(id)!));
  }

  async stop(id: string, options: { dryRun: boolean }): Promise<StopResult> {
    const [instance] = await this.describe([id]);
    const decided = decideStop(instance!);
    if (decided) return decided;
    this.authorize('ec2:StopInstances');
    if (options.dryRun)
      return { id, outcome: 'would-stop', previousState: 'running', detail: `burnrate may stop ${id}; nothing was stopped (dry run).` };
    // Re-read after the await above: another stop may have won in between.
    const current = this.instances.get(id)!;
    const again = decideStop(current);
    if (again) return again;
    current.state = 'stopped';
    this.stopped.push(id);
    return { id, outcome: 'stopped', previousState: 'running', detail: `Stopped ${id}: it was running and is now stopped.` };
  }

  private authorize(permission: StopPermission): void {
    if (this.denied.has(permission))
      throw new BurnrateError(
        'burnrate_ec2_access_denied',
        `The demo denied ${permission} (UnauthorizedOperation).`,
        `Allow ${permission} for the IAM role or user burnrate runs as.`,
        1,
      );
  }
}

function copy(instance: InstanceState): InstanceState {
  return { id: instance.id, state: instance.state, tags: { ...instance.tags } };
}
