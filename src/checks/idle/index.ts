import { defineCheck } from '../definition.js';
import { instanceLabel } from '../../domain/gpu-finding.js';
import { gpuCheck, idleGroup } from './definition.js';

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
  findings: {
    async get(deps, id) {
      const finding = await deps.store.gpuFindings.get(id);
      if (!finding) return null;
      const label = `${instanceLabel(finding)} ${finding.kind === 'gpu.stalled' ? 'stalled' : 'idle'}`;
      return { id, kind: 'gpuFindings', team: finding.team, group: idleGroup(finding), periodEnd: null, label, finding };
    },
  },
  summary: (deps, gpu) =>
    `idle-GPU check: ${gpu.findings.filter((f) => f.state !== 'resolved').length} idle instance(s), ${gpu.queued.length} alert(s) queued${deps.config.actions.enabled ? '' : ' (actions are dry runs)'}`,
});
