import type { CloudProvider } from './price-catalog.js';
import type { GpuLifecycle } from './gpu-inventory.js';

export type RecommendationKind = 'right-size' | 'spot';

/** One way to pay less for one instance, with the evidence people need to believe it. */
export interface Recommendation {
  /** `right-size:<instance id>` or `spot:<instance id>`: stable, so buttons and answers find it again. */
  id: string;
  kind: RecommendationKind;
  instanceId: string;
  /** The Name tag, else null. */
  name: string | null;
  /** Team id as the inventory resolved it (may be (untagged) or (unmapped)). */
  team: string;
  provider: CloudProvider;
  region: string;
  current: { instanceType: string; lifecycle: GpuLifecycle; hourly: number };
  proposed: { instanceType: string; lifecycle: GpuLifecycle; hourly: number };
  /** Hours a month the saving is counted over: the share of the lookback the instance ran × hours in a month. */
  hoursPerMonth: number;
  /** USD a month, (current − proposed hourly) × hoursPerMonth, rounded to cents. */
  monthlySaving: number;
  /** Sentences that say why, with the figures: what the metrics and tags showed, what the catalog charges. */
  evidence: string[];
  /**
   * How far the figures can be trusted: high for spot on a declared checkpointing workload seen
   * for three days or more, medium where the metrics cover three days, low on less.
   */
  confidence: 'high' | 'medium' | 'low';
  /**
   * What must change before the action can pass its own checks (a spot migration's readiness:
   * checkpointing, interval, protection), said instead of offering a button that would refuse.
   */
  blocker?: string;
}

export function recommendationId(kind: RecommendationKind, instanceId: string): string {
  return `${kind}:${instanceId}`;
}
