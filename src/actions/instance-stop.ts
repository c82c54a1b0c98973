import { STOP_PERMISSIONS, type StopResult } from './instance/instance-port.js';
import { instanceLabel } from '../domain/gpu-finding.js';
import { formatMoney } from '../domain/money.js';
import { BurnrateError } from '../errors.js';
import { detectIdleGpus, gpuDepsOf } from '../jobs/gpu-check.js';
import { errorMessage } from '../../templates/error-message.js';
import type { ActionSpec } from './action.js';
import { authorizeInstanceAction, currentIdleAlertMessage, readInstancePayload, timeOf } from './instance-alert.js';

const ACTION = 'instance.stop';
/** A stop claimed but not finished after this long is taken to have died with its process. */
const STALE_CLAIM_MS = 10 * 60_000;

/**
 * "Stop now" on an idle alert, step by step:
 *   1. validate the payload and load the finding
 *   2. owners, approvers and admins of the team only; a protected instance is refused with the reason
 *   3. a stop already claimed for this finding answers who did it (a second click does nothing twice)
 *   4. re-check idleness over fresh metrics: an instance busy again is not stopped
 *   5. claim the instance_actions row BEFORE acting; of concurrent clicks only one acts
 *   6. stop it, or a dry run while actions.enabled is false (which releases the claim)
 *   7. audit every attempt; update the alert with who stopped it
 */
export const instanceStopAction: ActionSpec = {
  id: ACTION,
  permissions: STOP_PERMISSIONS,
  async run(deps, interaction) {
    const { finding } = await readInstancePayload(deps, interaction.value);
    const { actor } = interaction;
    const name = instanceLabel(finding);
    const audit = { at: deps.clock(), platform: actor.platform, userId: actor.userId, action: ACTION, subject: finding.id, detail: finding.instanceId };
    await authorizeInstanceAction(deps, actor, finding, audit, 'stop');
    if (finding.protected) {
      await deps.store.audit.record({ ...audit, result: 'refused', detail: `${finding.instanceId} protected` });
      throw new BurnrateError('burnrate_instance_protected', `Not stopped: ${name} is tagged burnrate:protect=true, so burnrate never stops it.`, 'Remove the tag to allow stops, or keep it running.');
    }
    const earlier = await deps.store.instanceActions.get(finding.id, ACTION);
    // A claim left unfinished for long (the process died mid-stop) no longer blocks: stopping is idempotent.
    if (earlier && earlier.outcome === null && deps.clock().getTime() - earlier.at.getTime() > STALE_CLAIM_MS) await deps.store.instanceActions.release(finding.id, ACTION);
    else if (earlier) return duplicate();

    const idle = await detectIdleGpus(deps, deps.clock(), { instanceId: finding.instanceId });
    if (idle.length === 0) {
      await deps.store.audit.record({ ...audit, result: 'refused', detail: `${finding.instanceId} busy again` });
      await interaction.reply.private(errorMessage(`Not stopped: ${name} is busy again.`, 'Its GPUs are working according to the latest metrics; nothing was done.'));
      return;
    }

    const { first } = await deps.store.instanceActions.claim({ findingId: finding.id, action: ACTION, instanceId: finding.instanceId, byUser: actor.userId, at: deps.clock() });
    if (!first) return duplicate();
    const dryRun = !deps.config.actions.enabled;
    let result: StopResult;
    try {
      result = await gpuDepsOf(deps).instances.stop(finding.instanceId, { dryRun });
    } catch (error) {
      await deps.store.instanceActions.release(finding.id, ACTION);
      await deps.store.audit.record({ ...audit, result: 'failed', detail: `${finding.instanceId}: ${(error as Error).message}` });
      throw error;
    }
    if (result.outcome === 'would-stop') {
      await deps.store.instanceActions.release(finding.id, ACTION);
      await deps.store.audit.record({ ...audit, result: 'dry-run', detail: result.detail });
      const perDay = formatMoney(finding.perDay, 'USD');
      await interaction.reply.private(
        errorMessage(
          `Dry run: burnrate would have stopped ${name} (${finding.instanceId}), saving ${perDay} per day. Nothing was stopped.`,
          'Cloud actions are dry runs until `actions: { enabled: true }` is set in burnrate.yml.',
        ),
      );
      return;
    }
    if (result.outcome === 'refused') {
      await deps.store.instanceActions.release(finding.id, ACTION);
      await deps.store.audit.record({ ...audit, result: 'refused', detail: result.detail });
      throw new BurnrateError('burnrate_instance_refused', `Not stopped: ${result.detail}`);
    }
    await deps.store.instanceActions.complete(finding.id, ACTION, result.outcome, result.detail);
    await deps.store.audit.record({ ...audit, result: 'ok', detail: result.detail });
    await interaction.reply.update(await currentIdleAlertMessage(deps, finding));

    async function duplicate(): Promise<void> {
      const row = (await deps.store.instanceActions.get(finding.id, ACTION))!;
      await deps.store.audit.record({ ...audit, result: 'duplicate' });
      const what = row.outcome ? `Already stopped by ${row.byUser} at ${timeOf(row.at)}.` : `${row.byUser} is stopping ${name} since ${timeOf(row.at)}.`;
      await interaction.reply.private(errorMessage(what));
    }
  },
};
