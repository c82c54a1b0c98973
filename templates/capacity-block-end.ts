import type { CapacityBlockEnd } from '../src/checks/idle/capacity-block-ends.js';
import { timeOf, type Message } from './message.js';

const TERMINATION_LEAD_MS = 30 * 60_000;

/**
 * A Capacity Block's end, told to its team a day and an hour before, short enough for a phone: EC2
 * terminates the block's instances 30 minutes before the block ends, so work and checkpoints must be
 * off them by then: the notice names that time (the block's own end is in the EC2 console). The block is paid for: nothing is saved by stopping early, only by using it to the end.
 */
export function capacityBlockEndNotice(teamName: string, end: CapacityBlockEnd): Message {
  const label = end.name ?? end.instanceId;
  const ends = new Date(end.until);
  const terminated = new Date(ends.getTime() - TERMINATION_LEAD_MS);
  const when = end.lead === 'hour' ? 'within the hour' : 'within a day';
  return {
    summary: `${teamName}: the Capacity Block of ${label} ends ${when}`,
    blocks: [
      { type: 'header', text: `${teamName}: ${label}'s Capacity Block ends ${when}` },
      {
        type: 'text',
        text: `Save work before ${timeOf(terminated)}, when EC2 terminates it. Prepaid: stopping early saves nothing.`,
      },
    ],
  };
}
