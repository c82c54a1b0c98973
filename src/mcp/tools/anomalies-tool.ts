import { z } from 'zod';
import { anomalyList } from '../../../templates/anomaly-list.js';
import { DEFAULT_ANOMALY_DAYS, loadAnomalyListing, MAX_ANOMALY_DAYS } from '../../snapshots/anomaly-listing.js';
import { askedScope } from '../mcp-caller.js';
import { asJson, defineTool, teamArg, textOf } from './tool.js';

export const anomaliesTool = defineTool({
  name: 'anomalies',
  title: 'Spend anomalies',
  description:
    'Spend anomalies the check recorded in the last days: which spend moved, by how much against what was expected, what drove it, and how people answered (`burnrate anomalies --json`).',
  input: {
    team: teamArg,
    days: z
      .number()
      .int()
      .min(1)
      .max(MAX_ANOMALY_DAYS)
      .optional()
      .describe(`How many days back, 1 to ${MAX_ANOMALY_DAYS} (${DEFAULT_ANOMALY_DAYS} by default).`),
  },
  output: { anomalies: 'one per anomaly: team, day, amount, expected range, drivers, answer' },
  async run(caller, args) {
    const { teams, whole } = askedScope(caller, args.team);
    const days = args.days ?? DEFAULT_ANOMALY_DAYS;
    const listing = await loadAnomalyListing(caller.deps, { teams: whole ? null : teams, days, now: caller.now });
    return {
      data: asJson(listing),
      summary: textOf(anomalyList({ scope: teams.length === 1 ? teams[0]! : 'your teams', days, anomalies: listing.anomalies })),
    };
  },
});
