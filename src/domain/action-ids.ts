/**
 * Every button's action id, shared by the templates that draw the buttons and the actions that
 * handle them, so the two cannot drift apart. Slack wants ids unique within a block, so buttons
 * that share a handler carry a suffix after a colon (`budget.snooze:7d`); it is not part of the id.
 */
export const ACTION_IDS = {
  budgetAck: 'budget.ack',
  budgetSnooze: 'budget.snooze',
  budgetUnsnooze: 'budget.unsnooze',
  budgetBreakdown: 'budget.breakdown',
  budgetSave: 'budget.save',
  instanceStop: 'instance.stop',
  instanceKeep: 'instance.keep',
  instanceReroute: 'instance.reroute',
  workloadResume: 'workload.resume',
  spotApprove: 'spot.approve',
  spotRevert: 'spot.revert',
  sweepStop: 'sweep.stop',
  reviewAnswer: 'review.answer',
  reviewOwner: 'review.owner',
  anomalyExpected: 'anomaly.expected',
  anomalyNotExpected: 'anomaly.not-expected',
  findingDetails: 'finding.details',
  proposalDismiss: 'proposal.dismiss',
} as const;

export type ActionId = (typeof ACTION_IDS)[keyof typeof ACTION_IDS];

/** The handler id of a button's action id: the part before the colon. */
export function baseActionId(actionId: string): string {
  return actionId.split(':')[0]!;
}

/**
 * Buttons the chat platform answers itself, without the dispatcher: App Home's "Edit budget"
 * opens Slack's form, whose submission comes back as `budget.save`; a link button opens its page
 * (Slack still tells the app of the click, which is acknowledged and nothing more).
 */
export const SURFACE_ACTION_IDS = { budgetEdit: 'budget.edit', link: 'link.open' } as const;
