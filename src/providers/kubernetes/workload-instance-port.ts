import { BurnrateError } from '../../domain/errors.js';
import { workloadRefOf } from '../../domain/kubernetes.js';
import type { InstanceActionPort, InstanceState, StopResult } from '../../ports/instance-port.js';
import type { WorkloadPort } from '../../ports/workload-port.js';

/**
 * The idle check's Stop on a Kubernetes workload: the instance action port the Stop button and the
 * automatic stop already use, turned into a scale to zero (or suspend) of the workload.
 */
export class WorkloadInstancePort implements InstanceActionPort {
  readonly provider = 'kubernetes';

  constructor(private readonly workloads: WorkloadPort) {}

  async describe(ids: string[]): Promise<InstanceState[]> {
    // A workload has no machine state; the idle check's re-check over fresh metrics decides.
    return ids.map((id) => ({ id, state: 'running', tags: {} }));
  }

  async stop(id: string, { dryRun, by }: { dryRun: boolean; by?: string }): Promise<StopResult> {
    const ref = workloadRefOf(id);
    if (!ref)
      throw new BurnrateError(
        'burnrate_instance_unknown',
        `${id} is not a Kubernetes workload burnrate knows.`,
        'Run `/burnrate idle` for a fresh view.',
      );
    const result = await this.workloads.stop(ref, { dryRun, by: by ?? 'burnrate' });
    return {
      id,
      outcome: result.outcome,
      previousState: 'running',
      detail: result.detail,
      ...(result.earlier ? { earlier: result.earlier } : {}),
    };
  }
}
