import { defineCheck } from '../definition.js';
import { sweepCheckOf, sweepFindings } from './definition.js';

/** The sweep caps in the registry: in the idle-GPU check's job, after it (same metrics, same cron). */
export const sweepCheckPlugin = defineCheck({
  name: 'sweep check',
  findingKind: 'sweepFindings',
  schedule: { job: 'gpu check' },
  enabled: (deps) => Boolean(deps.gpu),
  definition: (deps) => sweepCheckOf(deps),
  findings: sweepFindings,
  // It runs only where a team has caps (sweepCheckOf), so a deployment without any hears nothing.
  summary: (_deps, sweeps) => `sweep caps: ${sweeps.findings.length} sweep(s) over a cap, ${sweeps.queued.length} alert(s) queued`,
});
