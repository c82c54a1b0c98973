import type { GpuInstance } from '../../domain/gpu-inventory.js';

/** How long before a Capacity Block's end it is announced: a day, then an hour. */
export type BlockEndLead = 'day' | 'hour';

const HOUR_MS = 3_600_000;

/** A Capacity Block instance whose block ends within a day (or an hour): its team is told, once per lead. */
export interface CapacityBlockEnd {
  instanceId: string;
  name: string | null;
  instanceType: string;
  team: string;
  /** When the block ends; EC2 terminates its instances 30 minutes before. */
  until: string;
  lead: BlockEndLead;
}

/**
 * The Capacity Blocks ending within a day, each at the nearest lead it has reached: an hour or less
 * left is the hour's announcement, a day or less the day's. A block whose end has passed, or whose
 * end EC2 did not give, is not announced. Pure.
 */
export function capacityBlockEnds(instances: readonly GpuInstance[], now: Date): CapacityBlockEnd[] {
  return instances.flatMap((i) => {
    if (i.prepaid?.kind !== 'capacity-block' || !i.prepaid.until) return [];
    const left = Date.parse(i.prepaid.until) - now.getTime();
    if (!(left > 0) || left > 24 * HOUR_MS) return [];
    const lead: BlockEndLead = left <= HOUR_MS ? 'hour' : 'day';
    return [{ instanceId: i.instanceId, name: i.name, instanceType: i.instanceType, team: i.team, until: i.prepaid.until, lead }];
  });
}
