import { defineCheck } from '../definition.js';
import { anomalyCheck, anomalyFindings } from './definition.js';

const summary = (result: { findings: unknown[]; queued: unknown[] }) =>
  `anomaly check: ${result.findings.length} open anomal${result.findings.length === 1 ? 'y' : 'ies'}, ${result.queued.length} message(s) queued`;

/** Spend anomalies in the registry: in the budget check's job, after it (the same refreshed bill, each team at its hour). */
export const anomalyCheckPlugin = defineCheck({
  name: 'anomaly check',
  findingKind: 'anomalyFindings',
  schedule: { job: 'budget check' },
  enabled: (deps) => deps.config.teams.some((t) => t.anomalies.enabled),
  definition: (_deps, teams) => anomalyCheck(teams),
  findings: anomalyFindings,
  summary: (_deps, result) => summary(result),
});

/** The same check hour by hour on the GPU machines' cost, in the GPU check's job (its metrics' cron), where GPU metrics are configured. */
export const hourlyAnomalyCheckPlugin = defineCheck({
  name: 'hourly anomaly check',
  findingKind: 'anomalyFindings',
  schedule: { job: 'gpu check' },
  enabled: (deps) => deps.gpu !== undefined && deps.config.teams.some((t) => t.anomalies.enabled),
  definition: (_deps, teams) => anomalyCheck(teams, 'hourly'),
  findings: anomalyFindings,
  summary: (_deps, result) => `hourly ${summary(result)}`,
});
