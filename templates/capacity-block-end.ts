import type { CapacityBlockEnd } from '../src/checks/idle/capacity-block-ends.js';
import { timeOf, type Message } from './message.js';

const TERMINATION_LEAD_MS = 30 * 60_000;

/**
 * A Capacity Block's end, told to its team a day and an hour before: EC2 terminates the block's
 * instances 30 minutes before the block ends, so work and checkpoints must be off them by then.
 * The block is paid for: nothing is saved by stopping early, only by using it to the end.
 */
export function capacityBlockEndNotice(teamName: string, end: CapacityBlockEnd): Message {
  const label = end.name ?? end.instanceId;
  const ends = new Date(end.until);
  const terminated = new Date(ends.getTime() - TERMINATION_LEAD_MS);
  const when = end.lead === 'hour' ? 'within the hour' : 'within a day';
  const headline = `${teamName}: the Capacity Block of ${label} ends ${when}`;
  return {
    summary: headline,
    blocks: [
      { type: 'header', text: headline },
      {
        type: 'text',
        text: `${label} (${end.instanceType}) runs in an EC2 Capacity Block that ends at ${timeOf(ends)}. EC2 terminates its instances 30 minutes before, at ${timeOf(terminated)}: save checkpoints and move work off it by then.`,
      },
      {
        type: 'context',
        text: 'The block is paid for up front and cannot be cancelled: stopping it early saves nothing. Buy another block before this one ends if the work needs more time.',
      },
    ],
  };
}
