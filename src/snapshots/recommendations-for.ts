import type { Config } from '../config/schema.js';
import type { PeopleSources } from '../ports/people-directory.js';
import { spotApproverRoles } from '../checks/recommend/recommend-policy.js';
import { whoMay } from './who-may.js';
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
 * What could make each of some cost lines cheaper: right-size and spot recommendations for the
 * instance it bills, largest saving first, each with its message; one list per line, in order. A
 * line that bills no GPU instance, or an installation without GPU metrics, gets none: a review
 * thread asks every line and must not fail. The inventory and a week of metrics are read once for
 * all the lines, not once per line.
 */
export async function recommendationsFor(deps: Deps, lines: readonly CostLineRef[]): Promise<RecommendationWithMessage[][]> {
  const instanceIds = [...new Set(lines.flatMap((line) => (line.resourceId ? [line.resourceId] : [])))];
  if (instanceIds.length === 0 || !deps.gpu) return lines.map(() => []);
  const team = (id: string) => deps.config.teams.find((t) => t.id === id)?.name ?? id;
  const byInstance = new Map<string, RecommendationWithMessage[]>();
  for (const recommendation of await currentRecommendations(deps, { instanceIds })) {
    const message = recommendationMessage(recommendation, { teamName: team(recommendation.team), ...spotButtonOptions(deps) });
    byInstance.set(recommendation.instanceId, [...(byInstance.get(recommendation.instanceId) ?? []), { recommendation, message }]);
  }
  return lines.map((line) => (line.resourceId ? (byInstance.get(line.resourceId) ?? []) : []));
}

/** How the Approve spot migration button reads on this installation (dry run, second approver and who may give it). */
export function spotButtonOptions(deps: PeopleSources & { config: Config }): SpotButtonOptions {
  const { config } = deps;
  return {
    dryRun: !config.actions.enabled,
    secondApproverAbove: config.spot.secondApproverAbove,
    approvers: (team) => whoMay(deps, team, spotApproverRoles(config.spot)),
  };
}
