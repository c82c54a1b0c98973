import type { StopResult } from '../ports/instance-port.js';
import type { Deps } from '../deps.js';
import { stopSavingPerDay, type TrackedGpuFinding } from '../domain/gpu-finding.js';
import { ACTION_IDS } from '../domain/action-ids.js';
import { ActionFailed, type Audited } from '../domain/audit-outcome.js';
import type { InstanceActionRecord } from '../domain/instance-action.js';
import type { SavingEntry } from '../domain/saving.js';
import { gpuDepsOf } from '../snapshots/gpu-snapshot.js';
import { stillIdle } from '../snapshots/idle-gpus.js';
import { claimInstanceAction } from './claim-once.js';
import type { Operation } from './operation.js';

export const STOP_ACTION = ACTION_IDS.instanceStop;

/** What came of one attempt to stop an idle instance; failures are thrown (and audited). */
export type StopAttempt =
  | { kind: 'stopped'; result: StopResult }
  | { kind: 'dry-run'; result: StopResult }
  | { kind: 'refused'; detail: string }
  | { kind: 'busy' }
  | { kind: 'duplicate'; record: InstanceActionRecord };

/**
 * The stop itself, shared by the Stop button and a team's automatic stop; the caller has already
 * decided who may stop and refused protected instances. Step by step:
 *   1. claimOnce: a stop already claimed for this finding is a duplicate (a claim left unfinished
 *      for over 10 minutes died with its process and no longer blocks: stopping is idempotent)
 *   2. re-check idleness over the instance's fresh metrics (its series only, no bill) unless the
 *      caller has just seen it idle
 *   3. the instance_actions row is claimed BEFORE acting; of concurrent attempts only one acts
 *   4. stop it, or a dry run (which releases the claim)
 * It returns the outcome with its audit row; the caller's pipeline records it.
 */
export async function stopIdleAttempt(
  deps: Deps,
  finding: TrackedGpuFinding,
  byUser: string,
  options: { recheck: boolean; dryRun: boolean },
): Promise<Audited<StopAttempt>> {
  const actions = deps.store.instanceActions;
  const claimed = await claimInstanceAction(deps, finding, STOP_ACTION, byUser, async () =>
    options.recheck && !(await stillIdle(deps, finding.instanceId)) ? ('busy' as const) : null,
  );
  if (claimed.kind === 'duplicate') return { audit: { result: 'duplicate' }, value: { kind: 'duplicate', record: claimed.record } };
  if (claimed.kind === 'ended')
    return { audit: { result: 'refused', detail: `${finding.instanceId} busy again` }, value: { kind: 'busy' } };

  let result: StopResult;
  try {
    result = await gpuDepsOf(deps).instances.stop(finding.instanceId, { dryRun: options.dryRun, by: byUser });
  } catch (error) {
    await actions.release(finding.id, STOP_ACTION);
    throw new ActionFailed(`${finding.instanceId}: ${(error as Error).message}`, error);
  }
  if (result.outcome === 'would-stop' || result.outcome === 'refused') {
    await actions.release(finding.id, STOP_ACTION);
    const dryRun = result.outcome === 'would-stop';
    return {
      audit: { result: dryRun ? 'dry-run' : 'refused', detail: result.detail },
      value: dryRun ? { kind: 'dry-run', result } : { kind: 'refused', detail: result.detail },
    };
  }
  // An instance that was already stopped saves nothing by this click. A stop burnrate made earlier
  // (its answer lost) saves from when it was made, credited to who made it.
  const savings: SavingEntry[] =
    result.outcome === 'stopped'
      ? [
          {
            action: STOP_ACTION,
            ref: finding.id,
            resourceId: finding.instanceId,
            name: finding.name,
            team: finding.team,
            at: result.earlier?.at ?? deps.clock(),
            byUser: result.earlier?.by ?? byUser,
            expectedDaily: stopSavingPerDay(finding),
            currency: 'USD',
          },
        ]
      : [];
  await actions.complete(finding.id, STOP_ACTION, result.outcome, result.detail, savings);
  return { audit: { result: 'ok', detail: result.detail }, value: { kind: 'stopped', result } };
}

/**
 * A stop nobody clicked (a team's automatic stop, which has decided it is due and has just seen the
 * instance idle): audited as a Stop, a dry run until actions.enabled.
 */
export const automaticStop: Operation<TrackedGpuFinding, StopAttempt> = {
  id: STOP_ACTION,
  sideEffects: 'cloud',
  subject: (finding) => ({ subject: finding.id, detail: finding.instanceId }),
  async authorize() {},
  run: ({ deps, actor }, finding) => stopIdleAttempt(deps, finding, actor.userId, { recheck: false, dryRun: false }),
  dryRun: ({ deps, actor }, finding) => stopIdleAttempt(deps, finding, actor.userId, { recheck: false, dryRun: true }),
};
