import type { GpuInstance } from '../../domain/gpu-inventory.js';
import { UNMAPPED, UNTAGGED } from '../../domain/spend.js';
import type { IdleInstance } from './idle-findings.js';

/** `handedTo`: the team someone handed the instance to ("Not ours"), which outranks its tags. */
export function idleInstanceOf(i: GpuInstance, handedTo: string | undefined): IdleInstance {
  return {
    id: i.instanceId,
    team: handedTo ?? (i.team === UNTAGGED || i.team === UNMAPPED ? null : i.team),
    hourlyPrice: i.hourlyPrice,
    gpuCount: i.gpuCount,
    protected: i.protected,
    workload: i.workload,
    ...(i.priceNote ? { priceNote: i.priceNote } : {}),
    ...(i.prepaid ? { prepaid: i.prepaid } : {}),
    ...(i.covered ? { covered: i.covered } : {}),
    ...(i.notebook ? { notebook: i.notebook } : {}),
    ...(i.activity ? { activity: i.activity } : {}),
  };
}
