import type { PriceCatalog } from '../../domain/price-catalog.js';
import type { CommitmentCover, GpuInstance } from '../../domain/gpu-inventory.js';
import type { Recommendation } from '../../domain/recommendation.js';
import { formatMoney } from '../../domain/money.js';
import { ownerTagOf } from '../../domain/ownership.js';
import type { GpuUsage } from './gpu-usage.js';
import type { RecommendationsPolicy, SpotPolicy } from './recommend-policy.js';
import { rightSizeRecommendation } from './right-size.js';
import { round2, uncoveredPart } from './saving.js';
import { spotRecommendation } from './spot.js';
import type { SpotFigure } from './spot-figures.js';

export interface RecommendInput {
  instances: readonly GpuInstance[];
  /** Usage by instance id; an instance without usage gets no recommendation (no evidence). */
  usage: ReadonlyMap<string, GpuUsage>;
  catalog: PriceCatalog;
  policy: RecommendationsPolicy;
  spot: SpotPolicy;
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
    // Under a Savings Plan (instance.covered, from the bill): spot saves nothing while the plan pays.
    const candidates = [
      onUncoveredShare(rightSizeRecommendation(instance, usage, input.catalog, input.policy), instance.covered),
      instance.covered || multiNode.has(instance.instanceId) ? null : spotOf(instance, usage, input),
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

/**
 * A smaller type saves only on the share of the cost no commitment pays: the covered share frees the
 * Savings Plan for other usage, it is not refunded. Null where nothing is left to save.
 */
function onUncoveredShare(recommendation: Recommendation | null, covered: CommitmentCover | undefined): Recommendation | null {
  if (!recommendation || !covered) return recommendation;
  const saving = round2(uncoveredPart(recommendation.monthlySaving, covered.share));
  if (saving <= 0) return null;
  const percent = Math.round(covered.share * 100);
  return {
    ...recommendation,
    monthlySaving: saving,
    evidence: [
      ...recommendation.evidence,
      `${percent}% of its billed cost is covered by a ${covered.by}, paid whether it runs or not: a smaller type frees that part of the plan for other usage and saves only the uncovered ${formatMoney(saving, 'USD')} a month.`,
    ],
  };
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
