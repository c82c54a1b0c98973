import type { PriceCatalog } from '../../domain/price-catalog.js';
import type { GpuInstance } from '../../domain/gpu-inventory.js';
import type { Recommendation } from '../../domain/recommendation.js';
import type { GpuUsage } from './gpu-usage.js';
import type { RecommendationsPolicy, SpotPolicy } from './recommend-policy.js';
import { rightSizeRecommendation } from './right-size.js';
import { spotRecommendation } from './spot.js';

export interface RecommendInput {
  instances: readonly GpuInstance[];
  /** Usage by instance id; an instance without usage gets no recommendation (no evidence). */
  usage: ReadonlyMap<string, GpuUsage>;
  catalog: PriceCatalog;
  policy: RecommendationsPolicy;
  spot: SpotPolicy;
}

/** Every recommendation for the instances, largest monthly saving first. Pure: no I/O, no clock. */
export function recommend(input: RecommendInput): Recommendation[] {
  const out: Recommendation[] = [];
  for (const instance of input.instances) {
    const usage = input.usage.get(instance.instanceId);
    if (!usage) continue;
    const rightSize = rightSizeRecommendation(instance, usage, input.catalog, input.policy);
    if (rightSize) out.push(rightSize);
    const spot = spotRecommendation(instance, usage, input.catalog, input.policy, input.spot);
    if (spot) out.push(spot);
  }
  return out.sort((a, b) => b.monthlySaving - a.monthlySaving || a.id.localeCompare(b.id));
}
