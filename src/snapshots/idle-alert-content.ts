import { ACTION_IDS } from '../domain/action-ids.js';
import { workloadRefOf } from '../domain/kubernetes.js';
import type { TeamConfig } from '../config/schema.js';
import type { Deps } from '../deps.js';
import type { GpuFinding } from '../domain/gpu-finding.js';
import { unownedTeam } from '../config/unowned-team.js';
import { personText } from '../ports/people-directory.js';
import { UNOWNED_ID } from '../domain/unowned.js';
import { stopWordingOf } from '../providers/registry.js';
import { idleAlert, type IdleAlertData, type IdleAlertItem } from '../../templates/idle-alert.js';
import { timeOf, type Message } from '../../templates/message.js';

/** A finding as an alert lists it; `firstSeen` is when it was first alerted (now for a new one). */
export type AlertedFinding = GpuFinding & { firstSeen?: Date };

/** The team an alert speaks to: a configured team, or the stand-in for instances of no team. */
export function alertTeam(deps: Pick<Deps, 'config'>, team: string | null): TeamConfig | undefined {
  return team === null || team === UNOWNED_ID ? unownedTeam(deps.config) : deps.config.teams.find((t) => t.id === team);
}

/** The thread group of an instance's idle period in a team's alerts: automatic stops reply there. */
export function idleThread(team: string | null, findingId: string): string {
  return `gpu:${team ?? UNOWNED_ID}:${findingId}`;
}

/**
 * The idle alert of `team` (null: the unowned instances) as it should look now: each instance
 * open with its buttons (and its automatic stop in mode auto), or settled with who stopped it,
 * kept it running or handed it to another team.
 */
export async function idleAlertFor(
  deps: Deps,
  team: string | null,
  findings: readonly AlertedFinding[],
  handedOver?: IdleAlertData['handedOver'],
): Promise<Message> {
  const now = deps.clock();
  const config = alertTeam(deps, team);
  const keeps = new Map((await deps.store.keeps.active(now)).map((k) => [k.instanceId, k]));
  const owners = new Map((await deps.store.instanceOwners.list()).map((o) => [o.instanceId, o]));
  const items: IdleAlertItem[] = [];
  const person = (userId: string) => personText(deps, userId);
  for (const f of findings) {
    const stop = await deps.store.instanceActions.get(f.id, ACTION_IDS.instanceStop);
    const keep = keeps.get(f.instanceId);
    const handed = f.team !== team ? owners.get(f.instanceId) : undefined;
    if (stop?.outcome) {
      const resumed = await deps.store.instanceActions.get(f.id, ACTION_IDS.workloadResume);
      const stopped = `Stopped by ${person(stop.byUser)} at ${timeOf(stop.at)}${stop.outcome === 'already-stopped' ? ' (it was already stopped)' : ''}`;
      items.push({
        finding: f,
        settled: true,
        note: resumed?.outcome ? `${stopped}; resumed by ${person(resumed.byUser)} at ${timeOf(resumed.at)}` : stopped,
        // A workload burnrate scaled to zero can be brought back as it was.
        resumable: !resumed?.outcome && stop.outcome === 'stopped' && workloadRefOf(f.instanceId) !== null,
      });
    } else if (keep) items.push({ finding: f, settled: true, note: `Kept running by ${person(keep.byUser)} until ${timeOf(keep.until)}` });
    else if (handed)
      items.push({
        finding: f,
        settled: true,
        note: `Handed to ${alertTeam(deps, handed.team)?.name ?? handed.team} by ${person(handed.byUser)} at ${timeOf(handed.at)}`,
      });
    else {
      const stopWording = stopWordingOf(f.instanceId);
      items.push({ finding: f, autoStopAt: config ? autoStopAt(config, f, now) : null, ...(stopWording ? { stopWording } : {}) });
    }
  }
  return idleAlert({
    teamName: config?.name ?? config?.id ?? team ?? 'Unowned GPUs',
    items,
    dryRun: !deps.config.actions.enabled,
    mode: config?.gpu.mode ?? 'notify',
    unowned: team === null,
    ...(handedOver ? { handedOver } : {}),
  });
}

/** Mode auto: the first alert plus the team's grace period; null when nothing happens automatically. */
export function autoStopAt(team: TeamConfig, finding: AlertedFinding, now: Date): Date | null {
  if (team.gpu.mode !== 'auto' || finding.protected) return null;
  return new Date((finding.firstSeen ?? now).getTime() + team.gpu.autoStopAfterMinutes * 60_000);
}
