import { spendReport } from '../../commands/spend.js';
import { rolesOf, visibleTeams } from '../domain/roles.js';
import { BurnrateError } from '../domain/errors.js';
import { spendSummary } from '../../templates/spend-summary.js';
import type { ActionSpec } from './action.js';
import { readFindingPayload } from './finding-payload.js';

const TOP_RESOURCES = 10;

/** The services and resources behind an alert's spend, as replies in its thread. Reads only. */
export const budgetBreakdownAction: ActionSpec = {
  id: 'budget.breakdown',
  permissions: [],
  async run(deps, interaction) {
    const { finding } = await readFindingPayload(deps, interaction.value);
    const visible = visibleTeams(deps.config, rolesOf(deps.config, interaction.actor.userId));
    if (!visible.includes(finding.team)) {
      throw new BurnrateError('burnrate_forbidden', `Only members of ${finding.team} can see its breakdown.`, 'Ask an owner of the team, or an admin.');
    }
    const query = { period: finding.range, team: finding.team, visibleTeams: visible };
    const byService = await spendReport(deps, { ...query, by: 'service' });
    const byResource = await spendReport(deps, { ...query, by: 'resource' });
    await interaction.reply.thread(spendSummary(byService, `${finding.team} by service`));
    await interaction.reply.thread(spendSummary({ ...byResource, rows: byResource.rows.slice(0, TOP_RESOURCES) }, `${finding.team}, top ${TOP_RESOURCES} resources`));
  },
};
