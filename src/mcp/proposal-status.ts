import type { CommandContext } from '../../commands/command.js';
import { proposalDetail, type ActionProposal } from '../domain/action-proposal.js';
import { ACTION_IDS } from '../domain/action-ids.js';
import type { AuditEntry } from '../domain/audit.js';
import { BurnrateError } from '../domain/errors.js';

/** Where a proposal stands: decided by a click, still waiting, or moot because the instance is busy again. */
export type ProposalOutcome =
  | 'waiting'
  | 'stopped'
  | 'would-stop (dry run)'
  | 'kept'
  | 'handed-over'
  | 'no-longer-idle'
  | 'moved-to-spot'
  | 'would-move (dry run)'
  | 'approved, waiting for a second approver'
  | 'dismissed';

export interface ProposalStatus {
  proposal: Omit<ActionProposal, 'at'> & { at: string };
  outcome: ProposalOutcome;
  /** Who decided, and when; absent while waiting. */
  decidedBy?: string;
  decidedAt?: string;
  /** Every click on the alert's buttons since the proposal, and on its Dismiss, as the audit log has it (refusals included). */
  clicks: { at: string; platform: string; userId: string; action: string; result: AuditEntry['result']; detail: string | null }[];
}

/** The clicks that settle an idle alert or a spot recommendation, and what each one that went through means. */
const DECISIONS: Record<string, ProposalOutcome> = {
  [ACTION_IDS.instanceStop]: 'stopped',
  [ACTION_IDS.instanceKeep]: 'kept',
  [ACTION_IDS.instanceReroute]: 'handed-over',
  [ACTION_IDS.spotApprove]: 'moved-to-spot',
};

/** A spot approval that was not the last one needed: "approval 1 of 2". */
const PARTIAL_APPROVAL = /^approval (\d+) of (\d+)$/;

/**
 * A proposal's outcome, read from what people clicked on its subject since (the audit log: the one
 * record of every click, whichever platform it came from); only for users who may see its team.
 */
export async function proposalStatus(caller: CommandContext, id: string): Promise<ProposalStatus> {
  const proposal = await caller.deps.store.proposals.get(id);
  const visible = proposal && (proposal.team === null ? caller.roles.admin : caller.visibleTeams.includes(proposal.team));
  if (!proposal || !visible)
    throw new BurnrateError('burnrate_proposal_unknown', `no proposal "${id}" in your teams`, 'Give the id propose_action returned.');
  // Dismiss names its proposal: another proposal on the same alert is not dismissed with it.
  const isDismissal = (r: AuditEntry) => r.action === ACTION_IDS.proposalDismiss && r.detail === proposalDetail(id);
  const about = (await caller.deps.store.audit.about(proposal.subject, proposal.at)).filter(
    (r) => Object.hasOwn(DECISIONS, r.action) || isDismissal(r),
  );
  const rows = about.filter((r) => !isDismissal(r));
  const dismissed = about.find((r) => isDismissal(r) && r.result === 'ok');
  const clicks = about.map((r) => ({
    at: r.at.toISOString(),
    platform: r.platform,
    userId: r.userId,
    action: r.action,
    result: r.result,
    detail: r.detail ?? null,
  }));
  const decided =
    rows.find((r) => (r.result === 'ok' && !isPartial(r.detail)) || (r.result === 'dry-run' && r.action !== ACTION_IDS.instanceKeep)) ??
    dismissed;
  const finding = proposal.action === 'spot' ? null : await caller.deps.store.gpuFindings.get(proposal.subject);
  const outcome: ProposalOutcome = decided
    ? decided === dismissed
      ? 'dismissed'
      : decided.result === 'dry-run'
        ? decided.action === ACTION_IDS.spotApprove
          ? 'would-move (dry run)'
          : 'would-stop (dry run)'
        : DECISIONS[decided.action]!
    : rows.some((r) => r.result === 'ok')
      ? 'approved, waiting for a second approver'
      : finding?.state === 'resolved'
        ? 'no-longer-idle'
        : 'waiting';
  return {
    proposal: { ...proposal, at: proposal.at.toISOString() },
    outcome,
    ...(decided ? { decidedBy: decided.userId, decidedAt: decided.at.toISOString() } : {}),
    clicks,
  };
}

function isPartial(detail: string | null | undefined): boolean {
  const match = PARTIAL_APPROVAL.exec(detail ?? '');
  return match !== null && Number(match[1]) < Number(match[2]);
}
