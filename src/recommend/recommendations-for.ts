import type { Config } from '../config/schema.js';
import type { Deps } from '../deps.js';
import type { Recommendation } from '../domain/recommendation.js';
import { recommendationMessage, type SpotButtonOptions } from '../../templates/recommendation.js';
import type { Message } from '../../templates/message.js';
import { currentRecommendations } from './current-recommendations.js';

/** The part of a cost line recommendations look at: the resource it bills (an instance id). */
export interface CostLineRef {
  resourceId: string | null;
}

export interface RecommendationWithMessage {
  recommendation: Recommendation;
  /** The recommendation as a neutral message, with its buttons (Approve spot migration on a spot one). */
  message: Message;
}

/**
 * What could make one cost line cheaper: right-size and spot recommendations for the instance it
 * bills, largest saving first, each with its message. A line that bills no GPU instance, or an
 * installation without GPU metrics, gets none: a review thread asks every line and must not fail.
 */
export async function recommendationsFor(deps: Deps, line: CostLineRef): Promise<RecommendationWithMessage[]> {
  if (!line.resourceId || !deps.gpu) return [];
  const recommendations = await currentRecommendations(deps, { instanceId: line.resourceId });
  const team = (id: string) => deps.config.teams.find((t) => t.id === id)?.name ?? id;
  return recommendations.map((recommendation) => ({
    recommendation,
    message: recommendationMessage(recommendation, { teamName: team(recommendation.team), ...spotButtonOptions(deps.config) }),
  }));
}

/** How the Approve spot migration button reads on this installation (dry run, second approver). */
export function spotButtonOptions(config: Config): SpotButtonOptions {
  return { dryRun: !config.actions.enabled, secondApproverAbove: config.spot.secondApproverAbove };
}
