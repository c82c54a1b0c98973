import type { Deps } from '../deps.js';
import { sweepCheckOf, type SweepCheckResult } from '../checks/sweeps/definition.js';
import { runCheck, type RunCheckOptions } from './run-check.js';

/** The sweep caps now; teams with sweepCaps only (none, nothing to read). Defined in checks/sweeps/. */
export async function runSweepCheck(deps: Deps, options: RunCheckOptions = {}): Promise<SweepCheckResult> {
  const check = sweepCheckOf(deps);
  return check ? runCheck(deps, check, options) : { findings: [], resolved: [], queued: [] };
}
