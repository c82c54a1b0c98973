import { BurnrateError } from './errors.js';
import type { GpuInstance } from './gpu-inventory.js';
import type { SourceFailure } from './source-freshness.js';

/**
 * A `gpu.inventory` source that could not be read this time: its name as burnrate.yml gives it and
 * the error (the IAM action to allow, the endpoint that did not answer), as a failing spend
 * source is told (SourceFailure). Its machines are unknown, not gone.
 */
export type UnreadInventory = Pick<SourceFailure, 'source' | 'error'> & {
  /**
   * The machines (and their teams) of the source's last good read since burnrate started: whose
   * alerts wait for it. Absent when it has not answered since the start: nothing is known of it.
   */
  lastRead?: readonly { instanceId: string; team: string }[];
};

/**
 * One read of the GPU inventory: the machines of every source that answered, and the sources that
 * did not. One source failing loses only its own machines.
 */
export interface InventoryRead {
  instances: GpuInstance[];
  unavailable: UnreadInventory[];
}

/** "sagemaker-studio (eu-west-1): SageMaker in eu-west-1 denied sagemaker:ListApps …; ec2 (us-east-1): …" */
function describeUnread(unavailable: readonly UnreadInventory[]): string {
  return unavailable.map((u) => `${u.source}: ${u.error}`).join('; ');
}

/**
 * An instance missing from an inventory read some of whose sources did not answer: it may be one
 * of their machines, so the action is refused as retryable, not as an instance that does not exist.
 */
export function unreadInventoryError(instanceId: string, unavailable: readonly UnreadInventory[]): BurnrateError {
  return new BurnrateError(
    'burnrate_gpu_inventory_unread',
    `${instanceId} is not in the GPU inventory read now, and ${unavailable.length === 1 ? 'a source' : 'some sources'} of it could not be read: ${describeUnread(unavailable)}`,
    'Try again once the source answers: burnrate reads the inventory again at every click and every check.',
    1,
  );
}
