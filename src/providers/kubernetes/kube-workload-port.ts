import type { KubeConfig } from '@kubernetes/client-node';
import { BurnrateError } from '../../domain/errors.js';
import { ANNOTATIONS, isProtected, type WorkloadRef } from '../../domain/kubernetes.js';
import type { WorkloadPort, WorkloadResumeResult, WorkloadStopResult } from '../../ports/workload-port.js';
import { explainKubeError } from './kube-errors.js';
import { handleOf, type WorkloadHandle, type WorkloadObject } from './workload-handle.js';
import { KSERVE_MODE, label, NOTEBOOK_STOPPED, previousOf, stateOf, stoppedEarlier, type StopState } from './workload-stop-state.js';

/**
 * Stop, Resume and Keep on Kubernetes workloads, by kind:
 *   Deployment, StatefulSet: /scale to 0, the replicas before kept in `burnrate.io/previous-replicas`;
 *   Notebook (Kubeflow): the `kubeflow-resource-stopped` annotation its controller obeys;
 *   InferenceService (KServe, Serverless mode only): `spec.predictor.minReplicas: 0`, the minimum before kept;
 *   Job, RayCluster, RayJob: `spec.suspend: true`;
 *   a bare Pod: refused (deleting it would lose it, not pause it).
 * `burnrate.io/protect: "true"` on the workload or its namespace refuses every change. Stop writes
 * who and when (`burnrate.io/stopped-by`, `stopped-at`) before it changes anything, so a workload
 * found stopped with them is burnrate's stop whatever answer that call got; Resume restores only
 * what carries them, from the annotations, whichever replica or database made the stop. A dry run sends the same
 * patches with `dryRun=All`: the API server checks permissions and admission, and stores nothing.
 * The annotation patch carries the object's resourceVersion, so a concurrent change answers 409.
 */
export class KubeWorkloadPort implements WorkloadPort {
  constructor(
    private readonly clusters: ReadonlyMap<string, KubeConfig>,
    private readonly clock: () => Date,
  ) {}

  async stop(ref: WorkloadRef, { dryRun, by }: { dryRun: boolean; by: string }): Promise<WorkloadStopResult> {
    const refused = (detail: string): WorkloadStopResult => ({ outcome: 'refused', detail, previousReplicas: null });
    return this.guard(ref, 'stop', refused, async (handle, object) => {
      const mode = object.annotations[KSERVE_MODE] ?? 'Serverless';
      if (ref.kind === 'InferenceService' && mode !== 'Serverless')
        return refused(
          `${label(ref)} runs in KServe ${mode} mode, which cannot scale to zero: lower its minReplicas by hand, or move it to Serverless`,
        );
      const state = await stateOf(handle, ref, object);
      if (state.stopped)
        return object.annotations[ANNOTATIONS.stoppedBy]
          ? stoppedEarlier(ref, object, state.stopped)
          : { outcome: 'already-stopped', detail: `${label(ref)} was ${state.stopped} already`, previousReplicas: null };
      try {
        return await this.apply(handle, ref, object, state.amount, { dryRun, by });
      } catch (error) {
        if (dryRun) throw error;
        // The API server can apply a change and still answer an error (a 500 or a timeout after
        // etcd wrote it): read the workload back, and if burnrate's stop is in place, say so.
        const after = await this.readBack(handle, ref);
        if (after?.state.stopped && after.object.annotations[ANNOTATIONS.stoppedBy] === by)
          return {
            outcome: 'stopped',
            detail: `${label(ref)} is ${after.state.stopped} (the cluster answered an error, but the stop is in place)`,
            previousReplicas: previousOf(after.object),
          };
        throw error;
      }
    });
  }

  /** The stop itself: burnrate's annotations (who, when, what to restore) first, then the change. */
  private async apply(
    handle: WorkloadHandle,
    ref: WorkloadRef,
    object: WorkloadObject,
    amount: number | null,
    { dryRun, by }: { dryRun: boolean; by: string },
  ): Promise<WorkloadStopResult> {
    const done = (previousReplicas: number | null, what: string): WorkloadStopResult => ({
      outcome: dryRun ? 'would-stop' : 'stopped',
      detail: dryRun ? `dry run: ${label(ref)} would be ${what}` : `${label(ref)} ${what}`,
      previousReplicas,
    });
    const now = this.clock().toISOString();
    const stamp = (extra: Record<string, string> = {}) => ({
      metadata: {
        resourceVersion: object.resourceVersion,
        annotations: { [ANNOTATIONS.stoppedBy]: by, [ANNOTATIONS.stoppedAt]: now, ...extra },
      },
    });
    if (handle.scale) {
      await handle.patch(stamp({ [ANNOTATIONS.previousReplicas]: String(amount) }), dryRun);
      await handle.scale.patch(0, dryRun);
      return done(amount, `scaled from ${amount} to 0 replicas`);
    }
    switch (ref.kind) {
      case 'Notebook':
        await handle.patch(stamp({ [NOTEBOOK_STOPPED]: now }), dryRun);
        return done(null, 'stopped (its pod ends; its volume stays)');
      case 'InferenceService':
        await handle.patch(
          { ...stamp({ [ANNOTATIONS.previousReplicas]: String(amount) }), spec: { predictor: { minReplicas: 0 } } },
          dryRun,
        );
        return done(amount, `set to scale to zero when idle (minReplicas ${amount} → 0)`);
      default:
        await handle.patch({ ...stamp(), spec: { suspend: true } }, dryRun);
        return done(null, 'suspended');
    }
  }

  /** The workload read afresh after a failed write; null when it cannot be read either. */
  private async readBack(handle: WorkloadHandle, ref: WorkloadRef): Promise<{ object: WorkloadObject; state: StopState } | null> {
    try {
      const object = await handle.read();
      return { object, state: await stateOf(handle, ref, object) };
    } catch {
      return null; // the first error is the one to report
    }
  }

  async resume(ref: WorkloadRef, { dryRun }: { dryRun: boolean; by: string }): Promise<WorkloadResumeResult> {
    const refused = (detail: string): WorkloadResumeResult => ({ outcome: 'refused', detail, restoredReplicas: null });
    return this.guard(ref, 'resume', refused, async (handle, object) => {
      if (!object.annotations[ANNOTATIONS.stoppedBy])
        return { outcome: 'not-stopped', detail: `${label(ref)} was not stopped by burnrate: nothing to resume`, restoredReplicas: null };
      const previous = previousOf(object) ?? 1;
      const unstamp = {
        metadata: { annotations: { [ANNOTATIONS.stoppedBy]: null, [ANNOTATIONS.stoppedAt]: null, [ANNOTATIONS.previousReplicas]: null } },
      };
      const done = (restoredReplicas: number | null, what: string): WorkloadResumeResult => ({
        outcome: dryRun ? 'would-resume' : 'resumed',
        detail: dryRun ? `dry run: ${label(ref)} would be ${what}` : `${label(ref)} ${what}`,
        restoredReplicas,
      });
      if (handle.scale) {
        await handle.scale.patch(previous, dryRun);
        await handle.patch(unstamp, dryRun);
        return done(previous, `scaled back to ${previous} replica${previous === 1 ? '' : 's'}`);
      }
      switch (ref.kind) {
        case 'Notebook':
          await handle.patch({ metadata: { annotations: { ...unstamp.metadata.annotations, [NOTEBOOK_STOPPED]: null } } }, dryRun);
          return done(null, 'started again');
        case 'InferenceService':
          await handle.patch({ ...unstamp, spec: { predictor: { minReplicas: previous } } }, dryRun);
          return done(previous, `back to minReplicas ${previous}`);
        default:
          await handle.patch({ ...unstamp, spec: { suspend: false } }, dryRun);
          return done(null, 'resumed');
      }
    });
  }

  async keep(ref: WorkloadRef, until: Date, by: string): Promise<void> {
    const handle = this.handle(ref);
    if (!handle) return; // a bare pod is never acted on: there is nothing to hold off
    await handle
      .patch({ metadata: { annotations: { [ANNOTATIONS.keepUntil]: until.toISOString(), [ANNOTATIONS.keptBy]: by } } }, false)
      .catch((error: unknown) => {
        throw explainKubeError(error, `annotate ${label(ref)}`, ref.cluster);
      });
  }

  /** Reads the workload and its namespace, refuses protected ones and bare pods, and explains API failures. */
  private async guard<T>(
    ref: WorkloadRef,
    verb: string,
    refuse: (detail: string) => T,
    act: (handle: WorkloadHandle, object: WorkloadObject) => Promise<T>,
  ): Promise<T> {
    const handle = this.handle(ref);
    if (!handle)
      return refuse(`${label(ref)} has no controller to scale: burnrate never deletes a pod (delete it yourself if it is not needed)`);
    try {
      const [object, namespace] = await Promise.all([handle.read(), handle.namespaceAnnotations()]);
      if (isProtected(object.annotations) || isProtected(namespace))
        return refuse(
          `${label(ref)} is protected (${ANNOTATIONS.protect}: "true" on the ${isProtected(object.annotations) ? ref.kind : 'namespace'})`,
        );
      return await act(handle, object);
    } catch (error) {
      throw explainKubeError(error, `${verb} ${label(ref)}`, ref.cluster);
    }
  }

  private handle(ref: WorkloadRef): WorkloadHandle | null {
    const config = this.clusters.get(ref.cluster);
    if (!config)
      throw new BurnrateError(
        'burnrate_kube_cluster_unknown',
        `burnrate does not know cluster ${ref.cluster}.`,
        'It may have been removed from kubernetes.clusters in burnrate.yml since the alert.',
      );
    return handleOf(config, ref);
  }
}
