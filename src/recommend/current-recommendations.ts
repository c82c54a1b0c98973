import { loadPriceCatalog, type PriceCatalog } from '../catalog/price-catalog.js';
import { gpuUsageOf, type GpuUsage } from '../checks/recommend/gpu-usage.js';
import { recommend } from '../checks/recommend/recommend.js';
import type { Deps } from '../deps.js';
import type { GpuInstance } from '../domain/gpu-inventory.js';
import type { GpuSeries, MetricsRange } from '../domain/gpu-metrics.js';
import type { Recommendation } from '../domain/recommendation.js';
import { gpuDepsOf } from '../jobs/gpu-check.js';
import { attributeSeries } from '../sources/gpu-attribution.js';

export interface RecommendationScope {
  /** Only these instances. */
  instanceIds?: readonly string[];
  team?: string;
}

/** Five-minute samples: a week of them per GPU is cheap to read, and fine enough for a high-water mark. */
const STEP_SECONDS = 300;

/** The lookback window of the recommendations, ending now on a whole step. */
export function recommendationWindow(deps: Pick<Deps, 'config'>, now: Date): MetricsRange {
  const end = Math.floor(now.getTime() / 1000 / STEP_SECONDS) * STEP_SECONDS;
  return { start: end - deps.config.recommendations.lookbackDays * 86_400, end, stepSeconds: STEP_SECONDS };
}

/**
 * Recommendations now, from the inventory and fresh metrics over `recommendations.lookbackDays`,
 * for some instances, one team or everything. Throws burnrate_gpu_unconfigured without GPU sources.
 */
export async function currentRecommendations(deps: Deps, scope: RecommendationScope = {}, catalog: PriceCatalog = loadPriceCatalog()): Promise<Recommendation[]> {
  const gpu = gpuDepsOf(deps);
  const range = recommendationWindow(deps, deps.clock());
  const [inventory, ...fetched] = await Promise.all([gpu.inventory(), ...gpu.metrics.map((m) => m.fetch(range))]);
  const instances = inventory.filter((i) => (!scope.instanceIds || scope.instanceIds.includes(i.instanceId)) && (!scope.team || i.team === scope.team));
  return recommend({ instances, usage: usageByInstance(instances, fetched.flat(), range), catalog, policy: deps.config.recommendations, spot: deps.config.spot });
}

/** The inventory record of one instance as it is now (fresh tags), or undefined. */
export async function currentInstance(deps: Deps, instanceId: string): Promise<GpuInstance | undefined> {
  return (await gpuDepsOf(deps).inventory()).find((i) => i.instanceId === instanceId);
}

/**
 * Each instance's usage from its GPUs' series. Series are tied to instances as the idle check ties
 * them (by id, host name or IP: DCGM and the CloudWatch agent name hosts, not instance ids).
 */
function usageByInstance(instances: readonly GpuInstance[], series: readonly GpuSeries[], range: MetricsRange): Map<string, GpuUsage> {
  const byInstance = new Map<string, GpuSeries[]>();
  for (const { series: s, instance } of attributeSeries(instances, series, new Map())) byInstance.set(instance.instanceId, [...(byInstance.get(instance.instanceId) ?? []), s]);
  return new Map([...byInstance].map(([id, list]) => [id, gpuUsageOf(list, range)]));
}
