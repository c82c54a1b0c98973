import { commitmentCovers } from '../checks/waste/prepaid-share.js';
import type { Deps } from '../deps.js';
import type { CommitmentCover, GpuInstance } from '../domain/gpu-inventory.js';
import { addDays, toDay } from '../domain/period.js';
import { RATE_DAYS } from './billed-rates.js';
import { loadResourceCosts } from './resource-lines.js';

/**
 * Which machines the bill shows under a Savings Plan (or a reservation it names), and for what
 * share of their cost, over the days their billed rate is taken from: the same bill rows and the
 * same share the waste diagnosis counts as unused commitment (src/checks/waste/prepaid-share.ts).
 * A Capacity Block or capacity reservation is prepaid whole by the inventory and is not asked;
 * nor is a Kubernetes workload, which is no machine.
 */
export async function loadCommitmentCovers(
  deps: Pick<Deps, 'config' | 'store' | 'clock'>,
  instances: readonly GpuInstance[],
): Promise<Map<string, CommitmentCover>> {
  const ids = instances.filter((i) => !i.prepaid && !i.kubernetes).map((i) => i.instanceId);
  if (ids.length === 0) return new Map();
  const today = toDay(deps.clock());
  const period = { start: addDays(today, -RATE_DAYS), end: addDays(today, 1) };
  const { lines } = await loadResourceCosts(deps, period, ids, { currency: 'USD' });
  return commitmentCovers(lines);
}

/** The instance with its commitment cover, where the bill shows one. */
export function withCover(instance: GpuInstance, covers: ReadonlyMap<string, CommitmentCover>): GpuInstance {
  const covered = covers.get(instance.instanceId);
  return covered ? { ...instance, covered } : instance;
}
