import type { AnyActionSpec } from './action.js';
import { anomalyExpectedAction } from './anomaly-expected.js';
import { anomalyNotExpectedAction } from './anomaly-not-expected.js';
import { baseActionId } from '../domain/action-ids.js';
import { budgetAckAction } from './budget-ack.js';
import { budgetBreakdownAction } from './budget-breakdown.js';
import { budgetSaveAction } from './budget-save.js';
import { budgetSnoozeAction } from './budget-snooze.js';
import { budgetUnsnoozeAction } from './budget-unsnooze.js';
import { findingDetailsAction } from './finding-details.js';
import { instanceKeepAction } from './instance-keep.js';
import { instanceRerouteAction } from './instance-reroute.js';
import { instanceStopAction } from './instance-stop.js';
import { proposalDismissAction } from './proposal-dismiss.js';
import { reviewAnswerAction } from './review-answer.js';
import { reviewOwnerAction } from './review-owner.js';
import { spotApproveAction } from './spot-approve.js';
import { spotRevertAction } from './spot-revert.js';
import { sweepStopAction } from './sweep-stop.js';
import { workloadResumeAction } from './workload-resume.js';

export const ACTIONS: readonly AnyActionSpec[] = [
  budgetAckAction,
  budgetSnoozeAction,
  budgetUnsnoozeAction,
  budgetBreakdownAction,
  findingDetailsAction,
  budgetSaveAction,
  instanceStopAction,
  instanceKeepAction,
  instanceRerouteAction,
  workloadResumeAction,
  spotApproveAction,
  spotRevertAction,
  sweepStopAction,
  reviewAnswerAction,
  reviewOwnerAction,
  anomalyExpectedAction,
  anomalyNotExpectedAction,
  proposalDismissAction,
];

/**
 * The handler of an action id. Slack wants action ids unique within a block, so buttons that share
 * a handler carry a suffix after a colon (`budget.snooze:7d`); it is not part of the id.
 */
export function findAction(actionId: string): AnyActionSpec | undefined {
  const id = baseActionId(actionId);
  return ACTIONS.find((a) => a.id === id);
}
