import { STOP_PERMISSIONS } from '../ports/instance-port.js';
import { instanceLabel } from '../domain/gpu-finding.js';
import { formatMoney } from '../domain/money.js';
import { BurnrateError } from '../domain/errors.js';
import { errorMessage } from '../../templates/error-message.js';
import type { ActionSpec } from './action.js';
import { authorizeInstanceAction, currentIdleAlertMessage, readInstancePayload, stopperRoles } from './instance-alert.js';
import { utcMinute } from '../domain/utc-minute.js';
import { STOP_ACTION, stopIdleInstance } from './stop-idle-instance.js';

/**
 * "Stop now" on an idle alert:
 *   1. validate the payload and load the finding
 *   2. owners, approvers and admins of the team (approvers and admins only in mode approve);
 *      a protected instance is refused with the reason
 *   3. stop it through stopIdleInstance: re-checked, claimed once, dry run until enabled, audited
 *   4. answer: the alert updated with who stopped it, or a private note (dry run, busy, duplicate)
 */
export const instanceStopAction: ActionSpec = {
  id: STOP_ACTION,
  permissions: STOP_PERMISSIONS,
  async run(deps, interaction) {
    const { finding } = await readInstancePayload(deps, interaction.value);
    const { actor } = interaction;
    const name = instanceLabel(finding);
    const audit = { at: deps.clock(), platform: actor.platform, userId: actor.userId, action: STOP_ACTION, subject: finding.id, detail: finding.instanceId };
    await authorizeInstanceAction(deps, actor, finding, audit, 'stop', stopperRoles(deps, finding));
    if (finding.protected) {
      await deps.store.audit.record({ ...audit, result: 'refused', detail: `${finding.instanceId} protected` });
      throw new BurnrateError('burnrate_instance_protected', `Not stopped: ${name} is tagged burnrate:protect=true, so burnrate never stops it.`, 'Remove the tag to allow stops, or keep it running.');
    }
    const attempt = await stopIdleInstance(deps, finding, audit, { recheck: true });
    switch (attempt.kind) {
      case 'stopped':
        await interaction.reply.update(await currentIdleAlertMessage(deps, finding));
        return;
      case 'busy':
        await interaction.reply.private(errorMessage(`Not stopped: ${name} is busy again.`, 'Its GPUs are working according to the latest metrics; nothing was done.'));
        return;
      case 'dry-run':
        await interaction.reply.private(
          errorMessage(
            `Dry run: burnrate would have stopped ${name} (${finding.instanceId}), saving ${formatMoney(finding.perDay, 'USD')} per day. Nothing was stopped.`,
            'Cloud actions are dry runs until `actions: { enabled: true }` is set in burnrate.yml.',
          ),
        );
        return;
      case 'refused':
        throw new BurnrateError('burnrate_instance_refused', `Not stopped: ${attempt.detail}`);
      case 'duplicate': {
        const { record } = attempt;
        const what = record.outcome ? `Already stopped by ${record.byUser} at ${utcMinute(record.at)}.` : `${record.byUser} is stopping ${name} since ${utcMinute(record.at)}.`;
        await interaction.reply.private(errorMessage(what));
      }
    }
  },
};
