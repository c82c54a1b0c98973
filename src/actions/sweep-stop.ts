import { z } from 'zod';
import { parseButtonValue, unknownFinding } from './button-value.js';
import type { ActionSpec } from './action.js';
import { STOP_PERMISSIONS, type StopResult } from '../ports/instance-port.js';
import { hasRole, rolesOf } from '../domain/roles.js';
import { utcMinute } from '../domain/utc-minute.js';
import { formatMoney } from '../domain/money.js';
import { BurnrateError } from '../domain/errors.js';
import { gpuDepsOf } from '../snapshots/gpu-snapshot.js';
import { errorMessage } from '../../templates/error-message.js';
import { sweepAlert } from '../../templates/sweep-alert.js';

const ACTION = 'sweep.stop';
const payloadSchema = z.strictObject({ f: z.string().min(1).max(300) });
/** A stop claimed but not finished after this long is taken to have died with its process. */
const STALE_CLAIM_MS = 10 * 60_000;

/**
 * "Stop sweep" on a runaway-sweep alert, under the idle-GPU Stop's rules:
 *   1. validate the payload and load the finding
 *   2. owners, approvers and admins of the team only
 *   3. one stop per crossing: a claim row written before acting; a second click is told who did it
 *   4. each instance through the action port: protected ones are left running (and named), a
 *      dry run asks the cloud and stops nothing while actions.enabled is false
 *   5. audit every instance's outcome; update the alert with who stopped what
 */
export const sweepStopAction: ActionSpec = {
  id: ACTION,
  permissions: STOP_PERMISSIONS,
  async run(deps, interaction) {
    const { f: id } = parseButtonValue(payloadSchema, interaction.value, '/burnrate idle');
    const finding = await deps.store.sweepFindings.get(id);
    if (!finding) throw unknownFinding('/burnrate idle');
    const { actor } = interaction;
    const team = deps.config.teams.find((t) => t.id === finding.team);
    const audit = { at: deps.clock(), platform: actor.platform, userId: actor.userId, action: ACTION, subject: id };
    if (!hasRole(rolesOf(deps.config, actor.userId), finding.team, ['owner', 'approver'])) {
      await deps.store.audit.record({ ...audit, result: 'refused', detail: `${finding.sweep} not an owner or approver` });
      throw new BurnrateError('burnrate_forbidden', `Only owners and approvers of ${team?.name ?? finding.team} can stop sweep ${finding.sweep}.`, 'Ask one of them, or an admin.');
    }
    // One stop per crossing: a sweep that crosses again later (a new first_seen) can be stopped again.
    const claimKey = `${id}@${finding.firstSeen.toISOString()}`;
    const earlier = await deps.store.instanceActions.get(claimKey, ACTION);
    if (earlier && earlier.outcome === null && deps.clock().getTime() - earlier.at.getTime() > STALE_CLAIM_MS) await deps.store.instanceActions.release(claimKey, ACTION);
    else if (earlier) return duplicate();
    const ids = finding.instances.map((i) => i.instanceId);
    const { first } = await deps.store.instanceActions.claim({ findingId: claimKey, action: ACTION, instanceId: ids.join(','), byUser: actor.userId, at: deps.clock() });
    if (!first) return duplicate();

    const dryRun = !deps.config.actions.enabled;
    const port = gpuDepsOf(deps).instances;
    const results: StopResult[] = [];
    try {
      for (const instance of finding.instances) {
        const result = await port.stop(instance.instanceId, { dryRun });
        results.push(result);
        await deps.store.audit.record({ ...audit, result: auditResult(result), detail: `${instance.instanceId}: ${result.detail}` });
      }
    } catch (error) {
      await deps.store.instanceActions.release(claimKey, ACTION);
      await deps.store.audit.record({ ...audit, result: 'failed', detail: (error as Error).message });
      throw error;
    }
    const label = (instanceId: string) => finding.instances.find((i) => i.instanceId === instanceId)?.name ?? instanceId;
    const of = (outcome: StopResult['outcome']) => results.filter((r) => r.outcome === outcome).map((r) => label(r.id));
    const refused = of('refused');
    if (dryRun) {
      await deps.store.instanceActions.release(claimKey, ACTION);
      const would = of('would-stop');
      await interaction.reply.private(
        errorMessage(
          `Dry run: burnrate would have stopped ${would.length} instance(s) of sweep ${finding.sweep}${would.length ? ` (${would.join(', ')})` : ''}, saving ${formatMoney(finding.perHour, 'USD')} per hour.${refused.length ? ` Left running: ${refused.join(', ')} (protected or not running).` : ''} Nothing was stopped.`,
          'Cloud actions are dry runs until `actions: { enabled: true }` is set in burnrate.yml.',
        ),
      );
      return;
    }
    const stopped = of('stopped');
    const summary = `${stopped.length} stopped${of('already-stopped').length ? `, ${of('already-stopped').length} already stopped` : ''}${refused.length ? `, left running: ${refused.join(', ')} (protected or not running)` : ''}`;
    await deps.store.instanceActions.complete(claimKey, ACTION, 'stopped', summary);
    const note = `Sweep stopped by ${actor.userId} at ${utcMinute(deps.clock())}: ${summary}.`;
    await interaction.reply.update(sweepAlert({ teamName: team?.name ?? finding.team, finding, dryRun, note }));

    async function duplicate(): Promise<void> {
      const row = (await deps.store.instanceActions.get(claimKey, ACTION))!;
      await deps.store.audit.record({ ...audit, result: 'duplicate' });
      await interaction.reply.private(errorMessage(row.outcome ? `Sweep ${finding!.sweep} was already stopped by ${row.byUser} at ${utcMinute(row.at)} (${row.detail}).` : `${row.byUser} is stopping sweep ${finding!.sweep} since ${utcMinute(row.at)}.`));
    }
  },
};

function auditResult(result: StopResult): 'ok' | 'refused' | 'dry-run' {
  if (result.outcome === 'would-stop') return 'dry-run';
  if (result.outcome === 'refused') return 'refused';
  return 'ok';
}
