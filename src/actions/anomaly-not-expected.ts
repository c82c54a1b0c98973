import { ACTION_IDS } from '../domain/action-ids.js';
import { anomalyAnswerAction } from './anomaly-answer.js';

/** "Not expected" on a spend anomaly: owners and approvers; recorded for the monthly review, nothing accepted. */
export const anomalyNotExpectedAction = anomalyAnswerAction(ACTION_IDS.anomalyNotExpected, 'not-expected');
