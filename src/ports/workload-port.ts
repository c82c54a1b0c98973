import type { StoppedEarlier } from './instance-port.js';
import type { WorkloadRef } from '../domain/kubernetes.js';

/**
 * stopped: scaled to zero or suspended by burnrate, now or by an earlier call whose answer was lost
 * (then `earlier` says by whom and when: the workload carries burnrate's annotations); would-stop:
 * a dry run the API server accepted; already-stopped: at zero or suspended by someone else before
 * this call; refused: not touched on purpose (protected, a bare pod, a KServe mode that cannot
 * scale to zero), the reason in `detail`.
 */
export interface WorkloadStopResult {
  outcome: 'stopped' | 'would-stop' | 'already-stopped' | 'refused';
  detail: string;
  /** What Stop found (replicas, or KServe's minReplicas), for Resume; null for suspend and notebooks. */
  previousReplicas: number | null;
  earlier?: StoppedEarlier;
}

/** resumed: restored now; would-resume: a dry run; not-stopped: nothing burnrate stopped is there to restore; refused: protected. */
export interface WorkloadResumeResult {
  outcome: 'resumed' | 'would-resume' | 'not-stopped' | 'refused';
  detail: string;
  restoredReplicas: number | null;
}

/**
 * Acts on Kubernetes workloads, never on nodes. Each change records what it needs on the workload
 * itself (annotations), so Resume and Keep work from any replica and survive restarts. Failures
 * are BurnrateErrors (RBAC, not found, conflict, unreachable).
 */
export interface WorkloadPort {
  stop(ref: WorkloadRef, options: { dryRun: boolean; by: string }): Promise<WorkloadStopResult>;
  resume(ref: WorkloadRef, options: { dryRun: boolean; by: string }): Promise<WorkloadResumeResult>;
  /** Writes `burnrate.io/keep-until` (and who): later checks, on any replica, leave the workload alone until then. */
  keep(ref: WorkloadRef, until: Date, by: string): Promise<void>;
}
