import { personText } from '../ports/people-directory.js';
import { instanceLabel, type TrackedGpuFinding } from '../domain/gpu-finding.js';
import { BurnrateError } from '../domain/errors.js';
import { ACTION_IDS } from '../domain/action-ids.js';
import { ActionFailed } from '../domain/audit-outcome.js';
import { workloadRefOf } from '../domain/kubernetes.js';
import { timeOf } from '../../templates/message.js';
import type { WorkloadResumeResult } from '../ports/workload-port.js';
import { privateReply } from '../../templates/private-reply.js';
import { defineAction, type ActionContext } from './action.js';
import { DRY_RUN_HINT } from '../operations/operation.js';
import { claimInstanceAction } from '../operations/claim-once.js';
import { authorizeInstanceAction, currentIdleAlertMessage, readInstancePayload, stopperRoles } from './instance-alert.js';

export const RESUME_ACTION = ACTION_IDS.workloadResume;

type ResumeAttempt = { kind: 'done'; result: WorkloadResumeResult } | { kind: 'duplicate'; byUser: string; at: Date };

/**
 * Resume on a Kubernetes workload burnrate stopped (as the workload's annotations say, whatever
 * this database recorded of the Stop): its replicas (or KServe minimum) back as Stop found them, a
 * suspended job running again, a notebook started. Who may stop it may resume it.
 * Claimed once per stop, like the stop itself: concurrent clicks on any replica restore it once.
 */
async function resume(
  ctx: ActionContext,
  finding: TrackedGpuFinding,
  dryRun: boolean,
): Promise<{ audit: { result: 'ok' | 'dry-run' | 'duplicate' | 'refused'; detail: string }; value: ResumeAttempt }> {
  const { deps, interaction } = ctx;
  const ref = workloadRefOf(finding.instanceId)!;
  const actions = deps.store.instanceActions;
  const claimed = await claimInstanceAction(deps, finding, RESUME_ACTION, interaction.actor.userId);
  if (claimed.kind !== 'claimed') {
    const record = claimed.kind === 'duplicate' ? claimed.record : null;
    return {
      audit: { result: 'duplicate', detail: finding.instanceId },
      value: { kind: 'duplicate', byUser: record?.byUser ?? '', at: record?.at ?? deps.clock() },
    };
  }
  let result: WorkloadResumeResult;
  try {
    result = await deps.gpu!.workloads!.resume(ref, { dryRun, by: interaction.actor.userId });
  } catch (error) {
    await actions.release(finding.id, RESUME_ACTION);
    throw new ActionFailed(`${finding.instanceId}: ${(error as Error).message}`, error);
  }
  if (result.outcome !== 'resumed') {
    await actions.release(finding.id, RESUME_ACTION);
    return {
      audit: { result: result.outcome === 'would-resume' ? 'dry-run' : 'refused', detail: result.detail },
      value: { kind: 'done', result },
    };
  }
  await actions.complete(finding.id, RESUME_ACTION, result.outcome, result.detail);
  return { audit: { result: 'ok', detail: result.detail }, value: { kind: 'done', result } };
}

export const workloadResumeAction = defineAction({
  id: RESUME_ACTION,
  permissions: [],
  sideEffects: 'cloud',
  async parse(deps, interaction) {
    const { finding } = await readInstancePayload(deps, interaction.value);
    if (!workloadRefOf(finding.instanceId) || !deps.gpu?.workloads)
      throw new BurnrateError(
        'burnrate_payload_invalid',
        `${instanceLabel(finding)} is not a Kubernetes workload: there is nothing to resume.`,
        'Start the instance from its cloud console.',
      );
    // Whether burnrate stopped it is the workload's own record (its stopped-by annotation), which
    // the port reads: a Stop whose answer was lost, or made on a replica with another database,
    // is resumed all the same; a workload burnrate did not stop is refused there.
    return finding;
  },
  subject: (finding) => ({ subject: finding.id, detail: finding.instanceId }),
  async authorize({ deps, interaction, audit }, finding) {
    authorizeInstanceAction(deps, interaction.actor, finding, audit, 'resume', stopperRoles(deps, finding));
  },
  run: (ctx, finding) => resume(ctx, finding, false),
  dryRun: (ctx, finding) => resume(ctx, finding, true),
  async answer({ deps, interaction }, finding, attempt) {
    if (attempt.kind === 'duplicate') {
      await interaction.reply.private(privateReply(`Already resumed by ${personText(deps, attempt.byUser)} at ${timeOf(attempt.at)}.`));
      return;
    }
    const { result } = attempt;
    if (result.outcome === 'resumed') await interaction.reply.update(await currentIdleAlertMessage(deps, finding));
    else if (result.outcome === 'would-resume')
      await interaction.reply.private(privateReply(`Dry run: ${result.detail}. Nothing was changed.`, DRY_RUN_HINT));
    else throw new BurnrateError('burnrate_resume_refused', `Not resumed: ${result.detail}.`);
  },
});
