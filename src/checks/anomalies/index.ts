import { defineCheck } from '../definition.js';
import { anomalyCheck, anomalyGroup, anomalyMessage } from './definition.js';
import type { TrackedAnomalyFinding } from '../../domain/anomaly-finding.js';

/** Spend anomalies in the registry: in the budget check's job, after it (the same refreshed bill, each team at its hour). */
export const anomalyCheckPlugin = defineCheck({
  name: 'anomaly check',
  findingKind: 'anomalyFindings',
  schedule: { job: 'budget check' },
  enabled: (deps) => deps.config.teams.some((t) => t.anomalies.enabled),
  definition: (_deps, teams) => anomalyCheck(teams),
  findings: {
    async get(deps, id) {
      const finding = await deps.store.anomalyFindings.get(id);
      if (!finding) return null;
      return {
        id,
        kind: 'anomalyFindings',
        team: finding.team,
        group: anomalyGroup(finding),
        periodEnd: null,
        label: `the spend anomaly of ${finding.started}`,
        finding,
      };
    },
    alertNow: async (deps, handle, platform) => {
      const finding = (await deps.store.anomalyFindings.get(handle.id)) ?? (handle.finding as TrackedAnomalyFinding);
      const { state, firstSeen: _f, lastSeen: _l, resolvedAt: _r, ...body } = finding;
      return anomalyMessage(
        deps,
        deps.chat.find((p) => p.platform === platform),
        body,
        state === 'resolved',
      );
    },
  },
  summary: (_deps, result) =>
    `anomaly check: ${result.findings.length} open anomal${result.findings.length === 1 ? 'y' : 'ies'}, ${result.queued.length} message(s) queued`,
});
