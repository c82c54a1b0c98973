/**
 * What a GPU instance's host (its CPUs and memory, not its GPUs) used at its busiest: the 95th
 * percentile over the lookback. A smaller type must hold these too: GPU metrics alone would move a
 * data loader that needs 40 vCPUs to a type with 8.
 */

/** An amount as the source measured it: absolute (vCPUs busy, GiB used) or a share of the host's (0–1). */
export type HostAmount = { amount: number } | { share: number };

export interface HostPeak {
  /** The machine as the source names it (instance id, host name or IP), tied to instances like GPU series. */
  host: string;
  /** vCPUs busy at the 95th percentile; null when the source has no CPU figures for it. */
  cpu: HostAmount | null;
  /** Memory in use at the 95th percentile (GiB); null when the source has no memory figures for it. */
  memory: HostAmount | null;
}

/** The host's needs in vCPUs and GiB, given its size; null where unmeasured. */
export interface HostNeeds {
  vcpus: number | null;
  memoryGiB: number | null;
}

export function hostNeeds(peak: HostPeak | null | undefined, size: { vcpus: number; memoryGiB: number }): HostNeeds {
  const resolve = (a: HostAmount | null | undefined, total: number) => (!a ? null : 'amount' in a ? a.amount : a.share * total);
  return { vcpus: resolve(peak?.cpu, size.vcpus), memoryGiB: resolve(peak?.memory, size.memoryGiB) };
}

/** The 95th percentile of the finite values (nearest rank); null when there are none. */
export function percentile95(values: Iterable<number>): number | null {
  const sorted = [...values].filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!;
}
