import type { StopResult } from '../ports/instance-port.js';
import type { Deps } from '../deps.js';
import type { TrackedGpuFinding } from '../domain/gpu-finding.js';
import { gpuDepsOf } from '../snapshots/gpu-snapshot.js';
import { detectIdleGpus } from '../snapshots/idle-gpus.js';
import type { AuditEntry } from '../domain/audit.js';
import type { InstanceActionRecord } from '../domain/instance-action.js';

export const STOP_ACTION = 'instance.stop';
/** A stop claimed but not finished after this long is taken to have died with its process. */
const STALE_CLAIM_MS = 10 * 60_000;

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
 *   1. a stop already claimed for this finding is a duplicate (a claim left unfinished for over
 *      10 minutes died with its process and no longer blocks: stopping is idempotent)
 *   2. re-check idleness over fresh metrics unless the caller has just seen it idle
 *   3. claim the instance_actions row BEFORE acting; of concurrent attempts only one acts
 *   4. stop it, or a dry run while actions.enabled is false (which releases the claim)
 *   5. audit the outcome
 */
export async function stopIdleInstance(
  deps: Deps,
  finding: TrackedGpuFinding,
  audit: Omit<AuditEntry, 'result'>,
  options: { recheck: boolean },
): Promise<StopAttempt> {
  const actions = deps.store.instanceActions;
  const earlier = await actions.get(finding.id, STOP_ACTION);
  if (earlier && earlier.outcome === null && deps.clock().getTime() - earlier.at.getTime() > STALE_CLAIM_MS) await actions.release(finding.id, STOP_ACTION);
  else if (earlier) return duplicate(earlier);

  if (options.recheck && (await detectIdleGpus(deps, deps.clock(), { instanceId: finding.instanceId })).length === 0) {
    await deps.store.audit.record({ ...audit, result: 'refused', detail: `${finding.instanceId} busy again` });
    return { kind: 'busy' };
  }

  const { first, record } = await actions.claim({ findingId: finding.id, action: STOP_ACTION, instanceId: finding.instanceId, byUser: audit.userId, at: deps.clock() });
  if (!first) return duplicate(record);
  let result: StopResult;
  try {
    result = await gpuDepsOf(deps).instances.stop(finding.instanceId, { dryRun: !deps.config.actions.enabled });
  } catch (error) {
    await actions.release(finding.id, STOP_ACTION);
    await deps.store.audit.record({ ...audit, result: 'failed', detail: `${finding.instanceId}: ${(error as Error).message}` });
    throw error;
  }
  if (result.outcome === 'would-stop' || result.outcome === 'refused') {
    await actions.release(finding.id, STOP_ACTION);
    await deps.store.audit.record({ ...audit, result: result.outcome === 'would-stop' ? 'dry-run' : 'refused', detail: result.detail });
    return result.outcome === 'would-stop' ? { kind: 'dry-run', result } : { kind: 'refused', detail: result.detail };
  }
  await actions.complete(finding.id, STOP_ACTION, result.outcome, result.detail);
  await deps.store.audit.record({ ...audit, result: 'ok', detail: result.detail });
  return { kind: 'stopped', result };

  async function duplicate(record: InstanceActionRecord): Promise<StopAttempt> {
    await deps.store.audit.record({ ...audit, result: 'duplicate' });
    return { kind: 'duplicate', record };
  }
}
