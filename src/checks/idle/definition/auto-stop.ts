import { automaticStop } from '../../../operations/stop-idle-instance.js';
import { DRY_RUN_HINT, runOperationAs } from '../../../operations/operation.js';
import { fanOutInThread } from '../../../outbox/fan-out.js';
import type { Deps } from '../../../deps.js';
import { instanceLabel, stopSavingWords } from '../../../domain/gpu-finding.js';
import type { OutboxDraft } from '../../../store/outbox-records.js';
import { privateReply } from '../../../../templates/private-reply.js';
import type { Message } from '../../../../templates/message.js';
import { alertTeam, autoStopAt, idleAlertFor, idleThread, type AlertedFinding } from '../../../snapshots/idle-alert-content.js';

/** Who the audit log and the alert name for a stop nobody clicked. */
export const AUTO_STOP_USER = 'burnrate (automatic stop)';
const AUTO_STOP_ACTOR = { platform: 'burnrate', userId: AUTO_STOP_USER };
/** Claimed once per idle period: one automatic attempt, and one message about it, whatever happens. */
const AUTO_ACTION = 'instance.autostop';

/**
 * Mode auto: an idle instance nobody kept running within the team's grace period after its first
 * alert is stopped, under the same rules as the Stop button (never protected ones, dry run until
 * actions.enabled, one stop per idle period, audited). The run has just seen it idle, so there
 * is no second re-check. Each attempt is announced once in the alert's thread, and the alert is
 * updated. A failed attempt (say, a missing permission) is audited and tried again next run.
 */
export async function autoStopIdle(deps: Deps, open: readonly AlertedFinding[], now: Date): Promise<void> {
  for (const finding of open) {
    const team = deps.config.teams.find((t) => t.id === finding.team);
    const due = team ? autoStopAt(team, finding, now) : null;
    if (!team || !due || due > now) continue;
    const tracked = await deps.store.gpuFindings.get(finding.id);
    if (!tracked || (await deps.store.keeps.active(now)).some((k) => k.instanceId === finding.instanceId)) continue;
    const { first } = await deps.store.instanceActions.claim({
      findingId: finding.id,
      action: AUTO_ACTION,
      instanceId: finding.instanceId,
      byUser: AUTO_STOP_USER,
      at: now,
    });
    if (!first) continue;

    let note: Message;
    try {
      const attempt = await runOperationAs(deps, AUTO_STOP_ACTOR, automaticStop, tracked);
      const name = instanceLabel(finding);
      const minutes = team.gpu.autoStopAfterMinutes;
      const saving = stopSavingWords(finding);
      if (attempt.kind === 'duplicate') continue;
      note =
        attempt.kind === 'stopped'
          ? privateReply(
              `Stopped ${name} (${finding.instanceId}) automatically: nobody kept it running within ${minutes} min of the alert, ${saving}.`,
              'Its disks stay; start it again when you need it.',
            )
          : attempt.kind === 'dry-run'
            ? privateReply(
                `Dry run: burnrate would have stopped ${name} (${finding.instanceId}) automatically now, ${saving}. Nothing was stopped.`,
                DRY_RUN_HINT,
              )
            : privateReply(`Not stopped automatically: ${attempt.kind === 'refused' ? attempt.detail : `${name} is busy again`}.`);
    } catch (error) {
      await deps.store.instanceActions.release(finding.id, AUTO_ACTION);
      deps.log.warn({ err: (error as Error).message, instance: finding.instanceId }, 'automatic stop failed; it will be tried again');
      continue;
    }
    await deps.store.outbox.enqueue(await threadNotes(deps, finding, note), now);
  }
}

/** A reply in the thread of the instance's alert and an update of that alert, on every platform it went to. */
async function threadNotes(deps: Deps, finding: AlertedFinding, note: Message): Promise<OutboxDraft[]> {
  const team = alertTeam(deps, finding.team)!;
  const open = (await deps.store.gpuFindings.listOpen()).filter((f) => f.team === finding.team);
  const alert = await idleAlertFor(deps, finding.team, open);
  return fanOutInThread(deps, team, idleThread(finding.team, finding.id), `gpu.autostop:${finding.id}`, [
    { op: 'reply', message: note, suffix: 'reply' },
    { op: 'update', message: alert, suffix: 'update' },
  ]);
}
