import { defineCheck } from '../definition.js';
import { budgetCheck, budgetFindings } from './definition.js';

/** The budget check in the registry: daily in each team's zone, after the sources are refreshed. */
export const budgetCheckPlugin = defineCheck({
  name: 'budget check',
  findingKind: 'findings',
  schedule: {
    job: 'budget check',
    cron: (deps) => ({ daily: deps.config.schedule.budgetCheck }),
    describe: (deps, timezone, teams) => `budget check daily at ${deps.config.schedule.budgetCheck} ${timezone} for ${teams.join(', ')}`,
    refreshFirst: true,
  },
  definition: (_deps, teams) => budgetCheck(teams ? { teams } : {}),
  findings: budgetFindings,
  summary: (_deps, check) => `budget check: ${check.findings.length} open finding(s), ${check.alerts.length} new alert(s)`,
});
