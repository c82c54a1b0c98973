import { commitmentCovers } from '../checks/waste/prepaid-share.js';
import type { Deps } from '../deps.js';
import type { CommitmentCover, GpuInstance } from '../domain/gpu-inventory.js';
import { addDays, toDay, type Period } from '../domain/period.js';
import { billMemo } from './bill-memo.js';
import { RATE_DAYS } from './billed-rates.js';
import { loadResourceCosts } from './resource-lines.js';

/**
 * Which machines the bill shows under a Savings Plan (or a reservation it names), and for what
 * share of their cost, over `period`: the same bill rows and the same share the waste diagnosis
 * counts as unused commitment (src/checks/waste/prepaid-share.ts). By default the days their billed
 * rate is taken from, which an idle alert's "stopping saves only the uncovered $X a day" pairs with;
 * recommendations ask for their lookback days, the days their waste diagnosis reads the same cover
 * over, so that `recommend` and `waste` say one covered share of one instance.
 * A Capacity Block or capacity reservation is prepaid whole by the inventory and is not asked;
 * nor is a Kubernetes workload, which is no machine.
 */
export async function loadCommitmentCovers(
  deps: Pick<Deps, 'config' | 'store' | 'clock'>,
  instances: readonly GpuInstance[],
  period: Period = billedRateDays(toDay(deps.clock())),
): Promise<Map<string, CommitmentCover>> {
  const ids = instances.filter((i) => !i.prepaid && !i.kubernetes).map((i) => i.instanceId);
  if (ids.length === 0) return new Map();
  // Read again only when the bill can have changed, as the billed rates are: the idle check asks every few minutes.
  return memo(deps, `${period.start}..${period.end}`, ids.join(','), async () =>
    commitmentCovers((await loadResourceCosts(deps, period, ids, { currency: 'USD' })).lines),
  );
}

/** The days an instance's billed rate is taken from, today's charges so far included. */
function billedRateDays(today: string): Period {
  return { start: addDays(today, -RATE_DAYS), end: addDays(today, 1) };
}

const memo = billMemo<Map<string, CommitmentCover>>();

/** The instance with its commitment cover, where the bill shows one. */
export function withCover(instance: GpuInstance, covers: ReadonlyMap<string, CommitmentCover>): GpuInstance {
  const covered = covers.get(instance.instanceId);
  return covered ? { ...instance, covered } : instance;
}
