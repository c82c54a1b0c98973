import type { Deps, GpuDeps } from '../deps.js';
import type { GpuInstance } from '../domain/gpu-inventory.js';
import type { UnreadInventory } from '../domain/inventory-read.js';
import type { GpuSeries, MetricsRange } from '../domain/gpu-metrics.js';
import type { Period } from '../domain/period.js';
import { BurnrateError } from '../domain/errors.js';
import { attributeSeries, type AttributedGpu } from './gpu-attribution.js';
import { namespaceTeamsOf } from '../domain/kubernetes.js';
import { loadBilledRates, withBilledRate } from './billed-rates.js';
import { loadCommitmentCovers, withCover } from './commitment-cover.js';

/** The GPU parts, or a clear error when no GPU source is configured. */
export function gpuDepsOf(deps: Deps): GpuDeps {
  if (!deps.gpu)
    throw new BurnrateError(
      'burnrate_gpu_unconfigured',
      'No GPU metrics are configured.',
      'Add gpu.metrics and gpu.inventory to burnrate.yml (see burnrate.example.yml), or `- type: demo` to sources.',
      1,
    );
  return deps.gpu;
}

export interface GpuSnapshotScope {
  /** Only these instances. */
  instanceIds?: readonly string[];
  /** Only instances whose ownership tag names this team (the tag as read). */
  team?: string;
}

/**
 * How an instance's team is read:
 *   'owners': a team someone handed it to ("Not ours") wins (see `handedTo`); else its tag's team;
 *             else, untagged, the team claiming its pods' namespace (`teams[].gpu.namespaces`).
 *             The idle check and the Stop re-check read teams so.
 *   'tags':   its ownership tag only: no namespace teams, no hand-overs, and no read of the owners
 *             table. The recommendations read teams so, as they always have (an untagged
 *             instance's recommendation names no team even where a namespace claims its pods).
 */
export type GpuOwnership = 'owners' | 'tags';

export interface GpuSnapshotOptions {
  window: MetricsRange;
  scope?: GpuSnapshotScope;
  /** 'owners' unless said otherwise. */
  ownership?: GpuOwnership;
  /**
   * Price each instance at the bill's rate (the default). Whether a GPU is idle does not depend on
   * its price: a re-check that only asks that reads no bill.
   */
  priced?: boolean;
  /**
   * The days each instance's commitment cover is read over (loadCommitmentCovers): the billed rate's
   * unless said; recommendations give their lookback days, as their waste diagnosis reads.
   */
  coverPeriod?: Period;
}

/** The GPU fleet over a window: what runs, what its GPUs did, and who owns it. */
export interface GpuSnapshot {
  window: MetricsRange;
  /** The inventory in scope as read (tags untouched), one record per instance id. */
  instances: GpuInstance[];
  /** Every GPU series of an instance in scope, tied to its instance (src/snapshots/gpu-attribution.ts). */
  series: AttributedGpu[];
  /** Instance id → the configured team someone handed it to ("Not ours"); always empty with 'tags'. */
  handedTo: ReadonlyMap<string, string>;
  /**
   * Series of no instance in the inventory: a machine terminated since (its metrics outlive it),
   * or one the inventory never listed. The waste diagnosis finds gone instances on the bill by them.
   */
  unattributed: GpuSeries[];
  /** Inventory sources that could not be read: their machines are unknown this time, not gone. */
  unavailable: UnreadInventory[];
}

/**
 * The one read of the GPU inventory and metrics, shared by the idle check, the Stop re-check, the
 * sweep check and the recommendations. The inventory, the owners, the bill's rates and every
 * metrics source are read at once; each instance is priced at its billed rate where the bill has
 * one (src/snapshots/billed-rates.ts) and carries the share of its bill a Savings Plan covered
 * (src/snapshots/commitment-cover.ts). Throws burnrate_gpu_unconfigured without GPU sources.
 */
export async function loadGpuSnapshot(
  deps: Deps,
  { window, scope = {}, ownership = 'owners', priced = true, coverPeriod }: GpuSnapshotOptions,
): Promise<GpuSnapshot> {
  const gpu = gpuDepsOf(deps);
  // The fleet's metrics are read beside the inventory; named instances' after it (their names ask the source).
  const [{ instances: inventory, unavailable }, owners, rates, fleet] = await Promise.all([
    gpu.inventory(),
    ownership === 'owners' ? deps.store.instanceOwners.list() : [],
    priced ? loadBilledRates(deps) : null,
    scope.instanceIds ? null : Promise.all(gpu.metrics.map((m) => m.fetch(window))),
  ]);
  const inScope = inventory.filter(
    (i) => (!scope.instanceIds || scope.instanceIds.includes(i.instanceId)) && (!scope.team || i.team === scope.team),
  );
  // An instance listed twice counts once, the later record winning.
  const listed = [...new Map(inScope.map((i) => [i.instanceId, rates ? withBilledRate(i, rates) : i])).values()];
  // Named instances: only their machines' series, where a source can be asked for some machines.
  const [fetched, covers] = await Promise.all([
    fleet ?? Promise.all(gpu.metrics.map((m) => (m.fetchInstances ? m.fetchInstances(window, listed) : m.fetch(window)))),
    priced ? loadCommitmentCovers(deps, listed, coverPeriod) : new Map(),
  ]);
  const instances = listed.map((i) => withCover(i, covers));
  const namespaces = ownership === 'owners' ? namespaceTeamsOf(deps.config.teams) : new Map<string, string>();
  const handedTo = new Map(owners.filter((o) => deps.config.teams.some((t) => t.id === o.team)).map((o) => [o.instanceId, o.team]));
  const all = fetched.flat();
  const series = attributeSeries(instances, all, namespaces);
  const matched = new Set(series.map((s) => s.series));
  return { window, instances, series, handedTo, unattributed: all.filter((s) => !matched.has(s)), unavailable };
}
