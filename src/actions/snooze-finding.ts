import { alertGroup } from '../checks/reconcile.js';
import type { Actor } from '../chat/interaction.js';
import type { Deps } from '../deps.js';
import type { TrackedFinding } from '../domain/finding.js';
import { hasRole, rolesOf } from '../domain/roles.js';
import { BurnrateError } from '../errors.js';

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const MAX_MS = 31 * 86_400_000;

/** `24h`, `7d`, `2w`, `90m`, or `period` (until the finding's period ends). */
export function parseSnoozeDuration(text: string, finding: Pick<TrackedFinding, 'range'>, now: Date): Date | null {
  const value = text.trim().toLowerCase();
  if (value === 'period') return new Date(`${finding.range.end}T00:00:00Z`);
  const match = /^(\d+)\s*([mhdw])$/.exec(value);
  if (!match) return null;
  const ms = Number(match[1]) * UNITS[match[2]!]!;
  return ms > 0 && ms <= MAX_MS ? new Date(now.getTime() + ms) : null;
}

/**
 * Silences a finding's alert group (its team, kind and period) until a time: owners, approvers
 * and admins only; audited either way. Snoozing again moves the end, it adds nothing.
 */
export async function snoozeFinding(deps: Deps, actor: Actor, findingId: string, duration: string): Promise<{ finding: TrackedFinding; until: Date }> {
  const now = deps.clock();
  const finding = await deps.store.findings.get(findingId);
  if (!finding) throw new BurnrateError('burnrate_finding_unknown', `There is no finding "${findingId}".`, 'Copy the finding id from the alert (its last line), or use the Snooze buttons on it.');
  const audit = { at: now, platform: actor.platform, userId: actor.userId, action: 'snooze', subject: finding.id, detail: duration };
  if (!hasRole(rolesOf(deps.config, actor.userId), finding.team, ['owner', 'approver'])) {
    await deps.store.audit.record({ ...audit, result: 'refused' });
    throw new BurnrateError('burnrate_forbidden', `Only owners and approvers of ${finding.team} can snooze its alerts.`, 'Ask one of them, or an admin.');
  }
  const until = parseSnoozeDuration(duration, finding, now);
  if (!until) throw new BurnrateError('burnrate_usage', `"${duration}" is not a snooze duration.`, 'Use 24h, 7d, 2w (at most 31 days) or period.');
  await deps.store.snoozes.set({ groupKey: alertGroup(finding), until, byUser: actor.userId, at: now });
  await deps.store.audit.record({ ...audit, result: 'ok', detail: `until ${until.toISOString()}` });
  return { finding, until };
}
