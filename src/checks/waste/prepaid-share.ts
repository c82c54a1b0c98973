import type { GpuInstance } from '../../domain/gpu-inventory.js';

/**
 * The share of each instance's cost that is prepaid: paid whether it runs or not, so stopping it
 * saves nothing. All of it for a Capacity Block or an instance in a capacity reservation (the
 * inventory says so: `prepaid`); for an instance the bill shows under a Savings Plan or
 * reservation (a commitment id on its rows: CUR's savingsPlan/reservation columns, FOCUS's
 * CommitmentDiscountId), the covered part of its cost. Instances with none are left out. Pure.
 */
export function prepaidShares(
  instances: readonly { instance: GpuInstance }[],
  billed: readonly { resourceId: string; cost: number; commitmentId: string | null }[],
): Map<string, number> {
  const total = new Map<string, number>();
  const covered = new Map<string, number>();
  for (const row of billed) {
    total.set(row.resourceId, (total.get(row.resourceId) ?? 0) + row.cost);
    if (row.commitmentId) covered.set(row.resourceId, (covered.get(row.resourceId) ?? 0) + row.cost);
  }
  const shares = new Map<string, number>();
  for (const { instance } of instances) {
    const id = instance.instanceId;
    if (instance.prepaid) shares.set(id, 1);
    else if ((covered.get(id) ?? 0) > 0 && (total.get(id) ?? 0) > 0) shares.set(id, Math.min(1, covered.get(id)! / total.get(id)!));
  }
  return shares;
}
