import { personText } from '../ports/people-directory.js';
import { instanceLabel, stopSavingWords } from '../domain/gpu-finding.js';
import { BurnrateError } from '../domain/errors.js';
import { Refused } from '../domain/audit-outcome.js';
import { timeOf } from '../../templates/message.js';
import { privateReply } from '../../templates/private-reply.js';
import { protectionOf } from '../../templates/idle-alert.js';
import { defineAction, type ActionContext } from './action.js';
import { DRY_RUN_HINT } from '../operations/operation.js';
import { authorizeInstanceAction, currentIdleAlertMessage, readInstancePayload, stopperRoles } from './instance-alert.js';
import { STOP_ACTION, stopIdleAttempt } from '../operations/stop-idle-instance.js';
import type { TrackedGpuFinding } from '../domain/gpu-finding.js';

/** Stop for real, or its dry run: the dispatcher decides which. */
const stop = (dryRun: boolean) => (ctx: ActionContext, finding: TrackedGpuFinding) =>
  stopIdleAttempt(ctx.deps, finding, ctx.interaction.actor.userId, { recheck: true, dryRun });

/**
 * "Stop now" on an idle alert:
 *   1. validate the payload and load the finding
 *   2. owners, approvers and admins of the team (approvers and admins only in mode approve);
 *      a protected instance is refused with the reason
 *   3. stop it through stopIdleAttempt: re-checked, claimed once, dry run until enabled
 *   4. answer: the alert updated with who stopped it, or a private note (dry run, busy, duplicate)
 */
export const instanceStopAction = defineAction({
  id: STOP_ACTION,
  permissions: [],
  ports: ['instances'],
  sideEffects: 'cloud',
  parse: async (deps, interaction) => (await readInstancePayload(deps, interaction.value)).finding,
  subject: (finding) => ({ subject: finding.id, detail: finding.instanceId }),
  async authorize({ deps, interaction, audit }, finding) {
    authorizeInstanceAction(deps, interaction.actor, finding, audit, 'stop', stopperRoles(deps, finding));
    if (finding.protected)
      throw new Refused(
        new BurnrateError(
          'burnrate_instance_protected',
          `Not stopped: ${instanceLabel(finding)} is protected (${protectionOf(finding)}), so burnrate never stops it.`,
          'Remove the protection to allow stops, or keep it running.',
        ),
        `${finding.instanceId} protected`,
      );
  },
  run: stop(false),
  dryRun: stop(true),
  async answer({ deps, interaction }, finding, attempt) {
    const name = instanceLabel(finding);
    switch (attempt.kind) {
      case 'stopped': {
        await interaction.reply.update(await currentIdleAlertMessage(deps, finding));
        // An earlier Stop (whose answer was lost, or made from another replica) is what holds it:
        // say so, with who and when as the workload records them.
        const earlier = attempt.result.earlier;
        if (earlier)
          await interaction.reply.private(
            privateReply(
              `Already stopped by ${earlier.by}${earlier.at ? ` at ${timeOf(earlier.at)}` : ''}: ${name} is still stopped.`,
              'Resume on the alert brings it back as it was.',
            ),
          );
        return;
      }
      case 'busy':
        await interaction.reply.private(
          privateReply(`Not stopped: ${name} is busy again.`, 'Its GPUs are working according to the latest metrics; nothing was done.'),
        );
        return;
      case 'dry-run':
        await interaction.reply.private(
          privateReply(
            `Dry run: burnrate would have stopped ${name} (${finding.instanceId}), ${stopSavingWords(finding)}. Nothing was stopped.`,
            DRY_RUN_HINT,
          ),
        );
        return;
      case 'refused':
        throw new BurnrateError('burnrate_instance_refused', `Not stopped: ${attempt.detail}`);
      case 'duplicate': {
        const { record } = attempt;
        const what = record.outcome
          ? `Already stopped by ${personText(deps, record.byUser)} at ${timeOf(record.at)}.`
          : `${personText(deps, record.byUser)} is stopping ${name} since ${timeOf(record.at)}.`;
        await interaction.reply.private(privateReply(what));
      }
    }
  },
});
