import { unreadInventoryError, type UnreadInventory } from '../domain/inventory-read.js';
import { loadPriceCatalog } from '../catalog/price-catalog.js';
import type { PriceCatalog } from '../domain/price-catalog.js';
import { gpuUsageOf, type GpuUsage } from '../checks/recommend/gpu-usage.js';
import { recommend } from '../checks/recommend/recommend.js';
import type { Deps } from '../deps.js';
import type { GpuInstance } from '../domain/gpu-inventory.js';
import type { GpuSeries, MetricsRange } from '../domain/gpu-metrics.js';
import type { Recommendation } from '../domain/recommendation.js';
import { toDay } from '../domain/period.js';
import { convert } from '../domain/fx.js';
import { spotFiguresOf } from '../checks/recommend/spot-figures.js';
import type { AttributedGpu } from './gpu-attribution.js';
import { gpuDepsOf, loadGpuSnapshot, type GpuSnapshotScope } from './gpu-snapshot.js';
import { periodWindow } from './gpu-windows.js';
import { loadHostPeaks } from './host-peaks.js';
import type { HostPeak } from '../domain/host-peaks.js';
import { loadFxRates } from './fx-rates.js';
import { loadWasteDiagnosis, wastePeriod } from './waste-snapshot.js';

/** Some instances, one team (by its tag) or everything. */
export type RecommendationScope = GpuSnapshotScope;

/**
 * Recommendations now, from the inventory, the bill and the metrics of the last
 * `recommendations.lookbackDays` whole days, for some instances, one team or everything. A spot
 * recommendation saves the instance's one spot figure, the waste diagnosis's for the same days
 * (`burnrate waste --days N` shows it too): the fleet is read whole, so the nodes of a multi-node run
 * are known as such whatever the scope. Throws burnrate_gpu_unconfigured without GPU sources.
 */
export async function currentRecommendations(
  deps: Deps,
  scope: RecommendationScope = {},
  catalog: PriceCatalog = loadPriceCatalog(),
): Promise<Recommendation[]> {
  return (await loadRecommendations(deps, scope, catalog)).recommendations;
}

/**
 * currentRecommendations, with the GPU inventory sources that could not be read: their machines get
 * none this time, and an answer says which source it could not check.
 */
export async function loadRecommendations(
  deps: Deps,
  scope: RecommendationScope = {},
  catalog: PriceCatalog = loadPriceCatalog(),
): Promise<{ recommendations: Recommendation[]; unavailable: UnreadInventory[] }> {
  const today = toDay(deps.clock());
  const period = wastePeriod({ days: deps.config.recommendations.lookbackDays }, today);
  // Teams as tagged ('tags'): unlike the idle check, no namespace teams and no hand-overs ("Not
  // ours") here, as it always was; loadGpuSnapshot's GpuOwnership says what 'owners' would change.
  // Each instance's commitment cover over the same days as its usage and its waste diagnosis: one covered share on both.
  const snapshot = await loadGpuSnapshot(deps, { window: periodWindow(period, deps.clock()), ownership: 'tags', coverPeriod: period });
  const { instances, series, window } = snapshot;
  const [hosts, diagnosis, fx] = await Promise.all([
    loadHostPeaks(deps, window, instances),
    loadWasteDiagnosis(deps, period, snapshot),
    loadFxRates(deps),
  ]);
  const recommendations = recommend({
    instances: instances.filter(
      (i) => (!scope.instanceIds || scope.instanceIds.includes(i.instanceId)) && (!scope.team || i.team === scope.team),
    ),
    usage: usageByInstance(series, window, hosts),
    catalog,
    policy: deps.config.recommendations,
    spot: deps.config.spot,
    runTagKey: deps.config.unitCosts.tagKeys.run,
    spotFigures: spotFiguresOf(diagnosis, (amount) => convert(amount, diagnosis.currency, 'USD', fx)),
  });
  return { recommendations, unavailable: snapshot.unavailable.map(({ source, error }) => ({ source, error })) };
}

/**
 * The inventory record of one instance as it is now (fresh tags), or undefined. Missing while an
 * inventory source does not answer, it may be that source's: an error worth a retry says so.
 */
export async function currentInstance(deps: Deps, instanceId: string): Promise<GpuInstance | undefined> {
  const { instances, unavailable } = await gpuDepsOf(deps).inventory();
  const instance = instances.find((i) => i.instanceId === instanceId);
  if (!instance && unavailable.length > 0) throw unreadInventoryError(instanceId, unavailable);
  return instance;
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
