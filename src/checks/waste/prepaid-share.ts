import type { CommitmentCover, GpuInstance } from '../../domain/gpu-inventory.js';

/** Bill rows of one resource: its cost, and the commitment that covered it, if any. */
type BilledRow = { resourceId: string; cost: number; commitmentId: string | null };

/**
 * The share of each instance's cost that is prepaid: paid whether it runs or not, so stopping it
 * saves nothing. All of it for a Capacity Block or an instance in a capacity reservation (the
 * inventory says so: `prepaid`); for an instance the bill shows under a Savings Plan or
 * reservation (a commitment id on its rows: CUR's savingsPlan/reservation columns, FOCUS's
 * CommitmentDiscountId), the covered part of its cost. Instances with none are left out. Pure.
 */
export function prepaidShares(instances: readonly { instance: GpuInstance }[], billed: readonly BilledRow[]): Map<string, number> {
  const covers = commitmentCovers(billed);
  const shares = new Map<string, number>();
  for (const { instance } of instances) {
    const id = instance.instanceId;
    if (instance.prepaid) shares.set(id, 1);
    else if (covers.has(id)) shares.set(id, covers.get(id)!.share);
  }
  return shares;
}

/**
 * Each resource's cover by commitments on these bill rows: the covered part of its cost as a share
 * of all of it, and what covered the most of it. Resources with no covered cost are left out. Pure.
 */
export function commitmentCovers(billed: readonly BilledRow[]): Map<string, CommitmentCover> {
  const total = new Map<string, number>();
  const byCommitment = new Map<string, Map<string, number>>();
  for (const row of billed) {
    total.set(row.resourceId, (total.get(row.resourceId) ?? 0) + row.cost);
    if (!row.commitmentId) continue;
    const of = byCommitment.get(row.resourceId) ?? new Map<string, number>();
    of.set(row.commitmentId, (of.get(row.commitmentId) ?? 0) + row.cost);
    byCommitment.set(row.resourceId, of);
  }
  const covers = new Map<string, CommitmentCover>();
  for (const [id, of] of byCommitment) {
    const covered = [...of.values()].reduce((a, b) => a + b, 0);
    const all = total.get(id) ?? 0;
    if (covered <= 0 || all <= 0) continue;
    const [main] = [...of].sort((a, b) => b[1] - a[1]);
    covers.set(id, { share: Math.min(1, covered / all), by: commitmentKindOf(main![0]) });
  }
  return covers;
}

/**
 * What a commitment id names: an AWS Savings Plan's ARN (`arn:aws:savingsplans::…:savingsplan/…`),
 * a reservation's (EC2 `reserved-instances`, Azure `reservationOrders`), else a commitment (a GCP CUD).
 */
function commitmentKindOf(commitmentId: string): CommitmentCover['by'] {
  if (/savingsplan/i.test(commitmentId)) return 'Savings Plan';
  if (/reserv/i.test(commitmentId)) return 'reservation';
  return 'commitment';
}
