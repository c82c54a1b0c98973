/** IAM actions a stop needs, for the generated IAM policy: it reads the instance before it acts. */
export const STOP_PERMISSIONS = ['ec2:DescribeInstances', 'ec2:StopInstances'] as const;
export type StopPermission = (typeof STOP_PERMISSIONS)[number];

/** An instance carrying this tag with the value `true` is never stopped by burnrate. */
export const PROTECT_TAG = 'burnrate:protect';

export type InstanceLifecycle = 'pending' | 'running' | 'stopping' | 'stopped' | 'terminated' | 'unknown';

export interface InstanceState {
  id: string;
  state: InstanceLifecycle;
  tags: Record<string, string>;
}

export interface StopResult {
  id: string;
  /**
   * stopped: the stop was issued now; already-stopped: stopped or stopping before this call, so
   * nothing was done; would-stop: a dry run the cloud says would succeed; refused: not stopped
   * on purpose (protected, not running), with the reason in `detail`.
   */
  outcome: 'stopped' | 'already-stopped' | 'would-stop' | 'refused';
  previousState: InstanceLifecycle;
  detail: string;
  /** With `stopped`: burnrate had stopped it before this call (an earlier click whose answer was lost), by whom and when. */
  earlier?: StoppedEarlier;
}

/** Who stopped a target and when, as the target itself records it; `at` null when the record predates the time stamp. */
export interface StoppedEarlier {
  by: string;
  at: Date | null;
}

/**
 * Stops one provider's instances. Stopping is idempotent: a second stop of the same instance
 * finds it stopped or stopping and does nothing. Failures are BurnrateErrors (missing
 * permission, unknown instance, throttling).
 */
export interface InstanceActionPort {
  readonly provider: string;
  /** Current state of each instance, in the order asked; an unknown id is a BurnrateError. */
  describe(ids: string[]): Promise<InstanceState[]>;
  /** `by`: who asked, where the target records it (a Kubernetes workload's annotation). */
  stop(id: string, options: { dryRun: boolean; by?: string }): Promise<StopResult>;
}

export function isProtected(tags: Record<string, string>): boolean {
  return tags[PROTECT_TAG]?.trim().toLowerCase() === 'true';
}

/**
 * The decision both ports share, before anything is sent: a result when the instance must not
 * or need not be stopped, undefined when it is running and may be stopped.
 */
export function decideStop(instance: InstanceState): StopResult | undefined {
  const { id, state } = instance;
  if (state === 'stopped' || state === 'stopping')
    return { id, outcome: 'already-stopped', previousState: state, detail: `${id} is already ${state}; nothing to do.` };
  if (isProtected(instance.tags))
    return {
      id,
      outcome: 'refused',
      previousState: state,
      detail: `${id} is tagged ${PROTECT_TAG}=true, so burnrate will not stop it. Remove the tag to allow stops.`,
    };
  if (state !== 'running')
    return {
      id,
      outcome: 'refused',
      previousState: state,
      detail: `${id} is ${state}, not running; only a running instance can be stopped.`,
    };
  return undefined;
}
