import type { Deps } from '../deps.js';
import { gpuCheck, type GpuCheckOptions, type GpuCheckResult } from '../checks/idle/definition.js';
import { runCheck } from './run-check.js';

/** The idle-GPU check now (`burnrate idle`, `/burnrate idle`): the check is defined in checks/idle/. */
export function runGpuCheck(deps: Deps, options: GpuCheckOptions = {}): Promise<GpuCheckResult> {
  return runCheck(deps, gpuCheck(options), options);
}
