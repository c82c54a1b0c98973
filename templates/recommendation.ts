import type { Recommendation } from '../src/domain/recommendation.js';
import { formatMoney } from '../src/domain/money.js';
import type { Block, Button, Message } from './message.js';
import { ACTION_IDS } from '../src/domain/action-ids.js';

/** Action ids of spot migration buttons; the handlers live in src/actions/. */
export const SPOT_ACTIONS = { approve: ACTION_IDS.spotApprove, revert: ACTION_IDS.spotRevert } as const;

export interface RecommendationMessageOptions extends SpotButtonOptions {
  teamName: string;
}

/** What the Approve spot migration button needs to know of the installation. */
export interface SpotButtonOptions {
  /** Cloud actions are dry runs (actions.enabled is false). */
  dryRun: boolean;
  /** A spot saving above this per month needs two approvers. */
  secondApproverAbove: number;
  /** Who may approve a team's migrations, named (personIn): the confirmation says whom a second approval needs. */
  approvers?: (team: string) => readonly string[];
}

const money = (n: number) => formatMoney(n, 'USD');

/** One recommendation with its evidence; a spot one carries the Approve spot migration button. */
export function recommendationMessage(rec: Recommendation, options: RecommendationMessageOptions): Message {
  const label = rec.name ?? rec.instanceId;
  const headline =
    rec.kind === 'spot'
      ? `Move ${label} to spot: save ${money(rec.monthlySaving)} a month`
      : `Right-size ${label} to ${rec.proposed.instanceType}: save ${money(rec.monthlySaving)} a month`;
  const blocks: Block[] = [
    { type: 'header', text: headline },
    {
      type: 'facts',
      facts: [
        { label: 'Team', value: options.teamName },
        { label: 'Now', value: `${rec.current.instanceType} ${rec.current.lifecycle} · ${money(rec.current.hourly)}/h` },
        { label: 'Proposed', value: `${rec.proposed.instanceType} ${rec.proposed.lifecycle} · ${money(rec.proposed.hourly)}/h` },
        { label: 'Saving', value: `${money(rec.monthlySaving)} a month (${Math.round(rec.hoursPerMonth)} h)` },
        { label: 'Confidence', value: rec.confidence },
      ],
    },
    ...rec.evidence.map((text): Block => ({ type: 'text', text })),
  ];
  if (rec.kind === 'spot' && rec.blocker) {
    blocks.push({ type: 'context', text: `Not ready for spot yet: ${rec.blocker}` });
  } else if (rec.kind === 'spot') {
    const two = needsTwoApprovers(rec, options);
    blocks.push({ type: 'actions', buttons: [spotApproveButton(rec, options)] });
    blocks.push({
      type: 'context',
      text: options.dryRun
        ? 'Dry run: Approve checks readiness and says what it would change; nothing changes until actions.enabled is true in burnrate.yml.'
        : `Team approvers only. Checked before anything changes: checkpointing declared, interval short enough, not an inference endpoint.${two ? ' Two different approvers needed.' : ''}`,
    });
  } else {
    blocks.push({
      type: 'context',
      text: `Changing the type needs a stop and a start: ${label}'s owner does it in a quiet moment. recommendation ${rec.id}`,
    });
  }
  return { summary: headline, blocks };
}

/** Above the limit: a second, different approver is needed, and who may give it. */
function secondApproverText(rec: Recommendation, options: SpotButtonOptions): string {
  const names = options.approvers?.(rec.team) ?? [];
  return `A second, different approver is needed before anything changes${names.length > 0 ? ` (approvers: ${names.join(', ')})` : ''}.`;
}

function needsTwoApprovers(rec: Recommendation, options: SpotButtonOptions): boolean {
  return rec.monthlySaving > options.secondApproverAbove;
}

/** The Approve spot migration button of a spot recommendation, with its confirm dialog; shared by the recommendation and the review line. */
export function spotApproveButton(rec: Recommendation, options: SpotButtonOptions, reviewLine?: number): Button {
  const label = rec.name ?? rec.instanceId;
  return {
    action: SPOT_ACTIONS.approve,
    label: 'Approve spot migration',
    // A review line's button names its line, so the line loses it once the migration is made.
    value: JSON.stringify({ i: rec.instanceId, ...(reviewLine !== undefined ? { l: reviewLine } : {}) }),
    style: 'primary',
    confirm: {
      title: `Move ${label} to spot?`.slice(0, 100),
      text: `Its launch template gets a new default version requesting spot capacity; the next launch runs on spot. ${needsTwoApprovers(rec, options) ? secondApproverText(rec, options) : 'This takes effect on your approval.'} Revert to on-demand undoes it.`,
      confirm: 'Approve',
      deny: 'Cancel',
    },
  };
}
