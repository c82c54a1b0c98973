import { ACTION_IDS } from '../domain/action-ids.js';
import { anomalyAnswerAction } from './anomaly-answer.js';

/** "Expected" on a spend anomaly: owners and approvers; accepts that level of what moved from now on. */
export const anomalyExpectedAction = anomalyAnswerAction(ACTION_IDS.anomalyExpected, 'expected');
