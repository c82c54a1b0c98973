import { askWhom } from './team-role.js';
import { groupsOf } from '../ports/people-directory.js';
import { z } from 'zod';
import { parseButtonValue, unknownFinding } from './button-value.js';
import type { Actor } from '../ports/interaction.js';
import type { Deps } from '../deps.js';
import { instanceLabel, type TrackedGpuFinding } from '../domain/gpu-finding.js';
import { hasRole, rolesOf, type TeamRole } from '../domain/roles.js';
import { BurnrateError } from '../domain/errors.js';
import type { AuditEntry } from '../domain/audit.js';
import { Refused } from '../domain/audit-outcome.js';
import { idleAlertFor } from '../snapshots/idle-alert-content.js';
import type { Message } from '../../templates/message.js';

const payloadSchema = z.strictObject({
  f: z.string().min(1).max(300),
  for: z.enum(['4h', 'workday']).optional(),
  /** "Not ours": the team picked, and the alert the pick started from. */
  to: z.string().min(1).max(100).optional(),
  m: z.strictObject({ target: z.string().min(1).max(300), ref: z.string().min(1).max(100) }).optional(),
});

export type InstancePayload = z.output<typeof payloadSchema>;

/** Validates a button value written by an idle alert and loads its finding; stale or forged values get a clear answer. */
export async function readInstancePayload(deps: Deps, value: string): Promise<{ payload: InstancePayload; finding: TrackedGpuFinding }> {
  const payload = parseButtonValue(payloadSchema, value, '/burnrate idle');
  const finding = await deps.store.gpuFindings.get(payload.f);
  if (!finding) throw unknownFinding('/burnrate idle');
  return { payload, finding };
}

/** Who may stop the instance: approvers (and admins) in mode approve, owners too otherwise. */
export function stopperRoles(deps: Deps, finding: TrackedGpuFinding): TeamRole[] {
  const team = deps.config.teams.find((t) => t.id === finding.team);
  return team?.gpu.mode === 'approve' ? ['approver'] : ['owner', 'approver'];
}

/** Holders of `allowed` roles in the instance's team and admins (admins only for an instance of no team); a refusal is audited by the pipeline. */
export function authorizeInstanceAction(
  deps: Deps,
  actor: Actor,
  finding: TrackedGpuFinding,
  audit: Omit<AuditEntry, 'result'>,
  verb: string,
  allowed: readonly TeamRole[] = ['owner', 'approver'],
): void {
  const groups = groupsOf(deps);
  if (hasRole(rolesOf(deps.config, actor.userId, groups), finding.team ?? '', allowed)) return;
  // The person the instance's burnrate:owner tag names acts on it as the team's owners do.
  if (allowed.includes('owner') && finding.owner && (finding.owner === actor.userId || groups(finding.owner)?.includes(actor.userId)))
    return;
  const approversOnly = !allowed.includes('owner');
  const who = approversOnly ? 'approvers' : 'owners and approvers';
  const team = finding.team ?? 'no team';
  throw new Refused(
    new BurnrateError(
      'burnrate_forbidden',
      `Only ${who} of ${team} can ${verb} ${instanceLabel(finding)}.`,
      approversOnly
        ? `${team} stops idle GPUs on approval. ${askWhom(deps, finding.team, ['approver'])}`
        : askWhom(deps, finding.team, ['owner', 'approver']),
    ),
    `${audit.detail ?? ''} ${approversOnly ? 'not an approver' : 'not an owner or approver'}`.trim(),
  );
}

/** The idle alert the clicked finding is on, as it should look now: its team's open instances and the one clicked. */
export async function currentIdleAlertMessage(
  deps: Deps,
  finding: TrackedGpuFinding,
  team: string | null = finding.team,
): Promise<Message> {
  const open = (await deps.store.gpuFindings.listOpen()).filter((f) => f.team === team);
  const findings = open.some((f) => f.id === finding.id) ? open : [finding, ...open];
  findings.sort((a, b) => b.burned - a.burned || a.instanceId.localeCompare(b.instanceId));
  return idleAlertFor(deps, team, findings);
}
