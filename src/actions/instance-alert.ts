import { z } from 'zod';
import { parseButtonValue, unknownFinding } from './button-value.js';
import type { Actor } from '../chat/interaction.js';
import type { Deps } from '../deps.js';
import { instanceLabel, type TrackedGpuFinding } from '../domain/gpu-finding.js';
import { hasRole, rolesOf } from '../domain/roles.js';
import { BurnrateError } from '../errors.js';
import type { AuditEntry } from '../store/store.js';
import { idleAlert, type IdleAlertItem } from '../../templates/idle-alert.js';
import type { Message } from '../../templates/message.js';

const payloadSchema = z.strictObject({
  f: z.string().min(1).max(300),
  for: z.enum(['4h', 'workday']).optional(),
});

export type InstancePayload = z.output<typeof payloadSchema>;

/** Validates a button value written by an idle alert and loads its finding; stale or forged values get a clear answer. */
export async function readInstancePayload(deps: Deps, value: string): Promise<{ payload: InstancePayload; finding: TrackedGpuFinding }> {
  const payload = parseButtonValue(payloadSchema, value, '/burnrate idle');
  const finding = await deps.store.gpuFindings.get(payload.f);
  if (!finding) throw unknownFinding('/burnrate idle');
  return { payload, finding };
}

/** Owners, approvers and admins of the instance's team (admins only for an instance of no team); a refusal is audited. */
export async function authorizeInstanceAction(deps: Deps, actor: Actor, finding: TrackedGpuFinding, audit: Omit<AuditEntry, 'result'>, verb: string): Promise<void> {
  if (hasRole(rolesOf(deps.config, actor.userId), finding.team ?? '', ['owner', 'approver'])) return;
  await deps.store.audit.record({ ...audit, result: 'refused', detail: `${audit.detail ?? ''} not an owner or approver`.trim() });
  const team = finding.team ?? 'no team';
  throw new BurnrateError('burnrate_forbidden', `Only owners and approvers of ${team} can ${verb} ${instanceLabel(finding)}.`, 'Ask one of them, or an admin.');
}

/** "2026-11-20 09:12 UTC" */
export function timeOf(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * The idle alert as it should look now: the team's open idle instances (and the one clicked),
 * each with who stopped it or kept it running.
 */
export async function currentIdleAlertMessage(deps: Deps, finding: TrackedGpuFinding): Promise<Message> {
  const now = deps.clock();
  const open = (await deps.store.gpuFindings.listOpen()).filter((f) => f.team === finding.team);
  const findings = open.some((f) => f.id === finding.id) ? open : [finding, ...open];
  findings.sort((a, b) => b.burned - a.burned || a.instanceId.localeCompare(b.instanceId));
  const keeps = new Map((await deps.store.keeps.active(now)).map((k) => [k.instanceId, k]));
  const items: IdleAlertItem[] = [];
  for (const f of findings) {
    const stop = await deps.store.instanceActions.get(f.id, 'instance.stop');
    const keep = keeps.get(f.instanceId);
    if (stop?.outcome) items.push({ finding: f, settled: true, note: `Stopped by ${stop.byUser} at ${timeOf(stop.at)}${stop.outcome === 'already-stopped' ? ' (it was already stopped)' : ''}` });
    else if (keep) items.push({ finding: f, settled: true, note: `Kept running by ${keep.byUser} until ${timeOf(keep.until)}` });
    else items.push({ finding: f });
  }
  const team = deps.config.teams.find((t) => t.id === finding.team);
  return idleAlert({ teamName: team?.name ?? finding.team ?? 'Unowned instances', items, dryRun: !deps.config.actions.enabled });
}
