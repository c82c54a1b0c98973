import { defineCheck } from '../definition.js';
import { anomalyCheck, anomalyFindings } from './definition.js';

/** Spend anomalies in the registry: in the budget check's job, after it (the same refreshed bill, each team at its hour). */
export const anomalyCheckPlugin = defineCheck({
  name: 'anomaly check',
  findingKind: 'anomalyFindings',
  schedule: { job: 'budget check' },
  enabled: (deps) => deps.config.teams.some((t) => t.anomalies.enabled),
  definition: (_deps, teams) => anomalyCheck(teams),
  findings: anomalyFindings,
  summary: (_deps, result) =>
    `anomaly check: ${result.findings.length} open anomal${result.findings.length === 1 ? 'y' : 'ies'}, ${result.queued.length} message(s) queued`,
});
