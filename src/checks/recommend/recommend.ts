import type { PriceCatalog } from '../../domain/price-catalog.js';
import type { GpuInstance } from '../../domain/gpu-inventory.js';
import type { Recommendation } from '../../domain/recommendation.js';
import { formatMoney } from '../../domain/money.js';
import { ownerTagOf } from '../../domain/ownership.js';
import type { GpuUsage } from './gpu-usage.js';
import type { RecommendationsPolicy, SpotPolicy } from './recommend-policy.js';
import { rightSizeRecommendation } from './right-size.js';
import { spotRecommendation } from './spot.js';
import type { SpotFigure } from './spot-figures.js';

export interface RecommendInput {
  instances: readonly GpuInstance[];
  /** Usage by instance id; an instance without usage gets no recommendation (no evidence). */
  usage: ReadonlyMap<string, GpuUsage>;
  catalog: PriceCatalog;
  policy: RecommendationsPolicy;
  spot: SpotPolicy;
  /** Instances the bill shows under a commitment (Savings Plan, reservation, CUD): moving them to spot saves nothing while it runs. */
  committed?: ReadonlySet<string>;
  /** The tag naming a training run (unitCosts.tagKeys.run): instances sharing one are the nodes of one multi-node job. */
  runTagKey?: string;
  /**
   * Each instance's one spot figure (src/checks/recommend/spot-figures.ts): a spot recommendation
   * saves that and nothing else, and an instance without one gets no spot recommendation. Every
   * caller that reads the bill passes it; without it the catalog's terms price spot.
   */
  spotFigures?: ReadonlyMap<string, SpotFigure>;
}

/**
 * At most one recommendation per instance, largest monthly saving first. Pure: no I/O, no clock.
 * Where an instance could both be right-sized and moved to spot, the larger saving is proposed and
 * the other named in its evidence: the two savings do not add up (spot on the smaller type saves
 * less than spot on this one), and a second step is priced once the first is done.
 */
export function recommend(input: RecommendInput): Recommendation[] {
  const multiNode = multiNodeInstances(input.instances, input.runTagKey);
  const out: Recommendation[] = [];
  for (const instance of input.instances) {
    const usage = input.usage.get(instance.instanceId);
    // A Kubernetes workload is not a machine to resize or relaunch: its nodes' pool is (the static-capacity finding).
    if (!usage || instance.kubernetes) continue;
    const candidates = [
      rightSizeRecommendation(instance, usage, input.catalog, input.policy),
      input.committed?.has(instance.instanceId) || multiNode.has(instance.instanceId) ? null : spotOf(instance, usage, input),
    ].filter((r): r is Recommendation => r !== null);
    const [best, other] = candidates.sort((a, b) => b.monthlySaving - a.monthlySaving);
    if (!best) continue;
    out.push(other ? { ...best, evidence: [...best.evidence, alsoPossible(other)] } : best);
  }
  return out.sort((a, b) => b.monthlySaving - a.monthlySaving || a.id.localeCompare(b.id));
}

function spotOf(instance: GpuInstance, usage: GpuUsage, input: RecommendInput): Recommendation | null {
  if (!input.spotFigures) return spotRecommendation(instance, usage, input.catalog, input.policy, input.spot);
  const figure = input.spotFigures.get(instance.instanceId);
  return figure ? spotRecommendation(instance, usage, input.catalog, input.policy, input.spot, figure) : null;
}

function alsoPossible(other: Recommendation): string {
  const what = other.kind === 'spot' ? 'moving it to spot' : `right-sizing it to ${other.proposed.instanceType}`;
  return `Also possible: ${what} (${formatMoney(other.monthlySaving, 'USD')} a month on its own; the two do not add up). One step at a time: the next is priced once this one is done.`;
}

/** Training instances that share their run tag with another instance: the nodes of one multi-node job. */
export function multiNodeInstances(instances: readonly GpuInstance[], runTagKey: string | undefined): Set<string> {
  if (!runTagKey) return new Set();
  const byRun = new Map<string, string[]>();
  for (const instance of instances) {
    if (instance.workload !== 'training') continue;
    const run = ownerTagOf(instance.tags, [runTagKey]);
    if (run) byRun.set(run, [...(byRun.get(run) ?? []), instance.instanceId]);
  }
  return new Set([...byRun.values()].filter((ids) => ids.length > 1).flat());
}
