import { loadPriceCatalog } from '../catalog/price-catalog.js';
import type { PriceCatalog } from '../domain/price-catalog.js';
import { gpuUsageOf, type GpuUsage } from '../checks/recommend/gpu-usage.js';
import { recommend } from '../checks/recommend/recommend.js';
import type { Deps } from '../deps.js';
import type { GpuInstance } from '../domain/gpu-inventory.js';
import type { GpuSeries, MetricsRange } from '../domain/gpu-metrics.js';
import type { Recommendation } from '../domain/recommendation.js';
import { addDays, toDay } from '../domain/period.js';
import type { AttributedGpu } from './gpu-attribution.js';
import { gpuDepsOf, loadGpuSnapshot, type GpuSnapshotScope } from './gpu-snapshot.js';
import { recommendationWindow } from './gpu-windows.js';
import { loadHostPeaks } from './host-peaks.js';
import type { HostPeak } from '../domain/host-peaks.js';

/** Days of billing data that say whether an instance runs under a commitment (the bill lags a day or two). */
const COMMITMENT_LOOKBACK_DAYS = 7;

/** Some instances, one team (by its tag) or everything. */
export type RecommendationScope = GpuSnapshotScope;

/**
 * Recommendations now, from the inventory and fresh metrics over `recommendations.lookbackDays`,
 * for some instances, one team or everything. Throws burnrate_gpu_unconfigured without GPU sources.
 */
export async function currentRecommendations(
  deps: Deps,
  scope: RecommendationScope = {},
  catalog: PriceCatalog = loadPriceCatalog(),
): Promise<Recommendation[]> {
  // Teams as tagged ('tags'): unlike the idle check, no namespace teams and no hand-overs ("Not
  // ours") here, as it always was; loadGpuSnapshot's GpuOwnership says what 'owners' would change.
  const { instances, series, window } = await loadGpuSnapshot(deps, {
    window: recommendationWindow(deps, deps.clock()),
    scope,
    ownership: 'tags',
  });
  const hosts = await loadHostPeaks(deps, window, instances);
  return recommend({
    instances,
    usage: usageByInstance(series, window, hosts),
    catalog,
    policy: deps.config.recommendations,
    spot: deps.config.spot,
    committed: new Set(await deps.store.spend.committedResources(addDays(toDay(deps.clock()), -COMMITMENT_LOOKBACK_DAYS))),
    runTagKey: deps.config.unitCosts.tagKeys.run,
  });
}

/** The inventory record of one instance as it is now (fresh tags), or undefined. */
export async function currentInstance(deps: Deps, instanceId: string): Promise<GpuInstance | undefined> {
  return (await gpuDepsOf(deps).inventory()).find((i) => i.instanceId === instanceId);
}

/**
 * Each instance's usage from its GPUs' series and its host's peaks. Series are tied to instances as the idle check ties
 * them (by id, host name or IP: DCGM and the CloudWatch agent name hosts, not instance ids).
 */
function usageByInstance(
  attributed: readonly AttributedGpu[],
  range: MetricsRange,
  hosts: ReadonlyMap<string, HostPeak>,
): Map<string, GpuUsage> {
  const byInstance = new Map<string, GpuSeries[]>();
  for (const { series: s, instance } of attributed)
    byInstance.set(instance.instanceId, [...(byInstance.get(instance.instanceId) ?? []), s]);
  return new Map([...byInstance].map(([id, list]) => [id, { ...gpuUsageOf(list, range), host: hosts.get(id) ?? null }]));
}
