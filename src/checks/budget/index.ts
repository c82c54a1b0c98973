import { defineCheck } from '../definition.js';
import type { TrackedFinding } from '../../domain/finding.js';
import { alertGroup } from '../reconcile.js';
import { budgetCheck } from './definition.js';
import { currentAlertMessage } from './definition/current-alert.js';

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
  findings: {
    async get(deps, id) {
      const finding = await deps.store.findings.get(id);
      if (!finding) return null;
      const label = `${finding.kind === 'budget.forecast' ? 'the forecast' : 'spend'} in ${finding.period}`;
      return { id, kind: 'findings', team: finding.team, group: alertGroup(finding), periodEnd: finding.range.end, label, finding };
    },
    alertNow: (deps, handle) => currentAlertMessage(deps, handle.finding as TrackedFinding),
  },
  summary: (_deps, check) => `budget check: ${check.findings.length} open finding(s), ${check.alerts.length} new alert(s)`,
});
