import { defineCheck } from '../definition.js';
import { gpuCheck, idleFindings } from './definition.js';

/** The idle-GPU check in the registry: on the `gpu.check` cron (UTC), where GPU metrics are configured. */
export const idleCheckPlugin = defineCheck({
  name: 'idle-GPU check',
  findingKind: 'gpuFindings',
  schedule: {
    job: 'gpu check',
    cron: (deps) => ({ expression: deps.config.gpu.check, utc: true }),
    describe: (deps) => `idle-GPU check on "${deps.config.gpu.check}" (UTC)`,
  },
  enabled: (deps) => Boolean(deps.gpu),
  definition: (_deps, teams) => gpuCheck(teams ? { teams } : {}),
  findings: idleFindings,
  summary: (deps, gpu) =>
    `idle-GPU check: ${gpu.findings.filter((f) => f.state !== 'resolved').length} idle instance(s), ${gpu.queued.length} alert(s) queued${deps.config.actions.enabled ? '' : ' (actions are dry runs)'}`,
});
