import { ANNOTATIONS, type WorkloadRef } from '../../domain/kubernetes.js';
import type { WorkloadStopResult } from '../../ports/workload-port.js';
import type { WorkloadHandle, WorkloadObject } from './workload-handle.js';

/**
 * What state a workload is in, as Stop and Resume read it: stopped or not (by kind), what Stop
 * recorded for Resume, and a stop burnrate's own annotations claim.
 */

/** How a workload is named in answers: `Deployment vision/llm-serve`. */
export const label = (ref: WorkloadRef) => `${ref.kind} ${ref.namespace}/${ref.name}`;

/** Kubeflow's notebook controller scales a Notebook's StatefulSet to zero while this annotation is set. */
export const NOTEBOOK_STOPPED = 'kubeflow-resource-stopped';
/** KServe scales to zero only in Serverless mode (Knative); RawDeployment and ModelMesh keep their pods. */
export const KSERVE_MODE = 'serving.kserve.io/deploymentMode';

/** Whether the workload is stopped now (and how, in words), and the replicas or minimum it runs with. */
export interface StopState {
  stopped: string | null;
  amount: number | null;
}

export async function stateOf(handle: WorkloadHandle, ref: WorkloadRef, object: WorkloadObject): Promise<StopState> {
  if (handle.scale) {
    const replicas = await handle.scale.read();
    return { stopped: replicas === 0 ? 'at 0 replicas' : null, amount: replicas };
  }
  switch (ref.kind) {
    case 'Notebook':
      return { stopped: object.annotations[NOTEBOOK_STOPPED] ? 'stopped' : null, amount: null };
    case 'InferenceService': {
      const min = Number(object.spec?.predictor?.minReplicas ?? 1);
      return { stopped: min === 0 ? 'allowed to scale to zero' : null, amount: min };
    }
    default:
      return { stopped: object.spec?.suspend === true ? 'suspended' : null, amount: null };
  }
}

/** What Stop recorded for Resume: a whole number of replicas, else null. */
export function previousOf(object: WorkloadObject): number | null {
  const text = object.annotations[ANNOTATIONS.previousReplicas];
  return text !== undefined && /^\d{1,6}$/.test(text) ? Number(text) : null;
}

/**
 * A workload found stopped that carries burnrate's own annotations: burnrate stopped it, whatever
 * answer that call got (a click whose answer was lost, another replica's click). It is `stopped`,
 * with who and when from the annotations, so the click records it and Resume can bring it back.
 */
export function stoppedEarlier(ref: WorkloadRef, object: WorkloadObject, what: string): WorkloadStopResult {
  const by = object.annotations[ANNOTATIONS.stoppedBy]!;
  const stamped = Date.parse(object.annotations[ANNOTATIONS.stoppedAt] ?? '');
  const at = Number.isNaN(stamped) ? null : new Date(stamped);
  return {
    outcome: 'stopped',
    detail: `${label(ref)} is ${what}: burnrate stopped it for ${by}${at ? ` at ${at.toISOString()}` : ''}`,
    previousReplicas: previousOf(object),
    earlier: { by, at },
  };
}
