import { askWhom } from './team-role.js';
import { groupsOf } from '../ports/people-directory.js';
import { loadSpendReport } from '../snapshots/spend-report.js';
import { rolesOf, visibleTeams } from '../domain/roles.js';
import { BurnrateError } from '../domain/errors.js';
import { ACTION_IDS } from '../domain/action-ids.js';
import { spendSummary } from '../../templates/spend-summary.js';
import { defineAction } from './action.js';
import { readFindingPayload } from './finding-payload.js';
import { unknownFinding } from './button-value.js';
import type { TrackedFinding } from '../domain/finding.js';
import type { Deps } from '../deps.js';
import type { ActionInteraction } from '../ports/interaction.js';

const TOP_RESOURCES = 10;

/** The services and resources behind an alert's spend, as replies in its thread. Reads only, so nothing is audited. */
export const budgetBreakdownAction = defineAction({
  id: ACTION_IDS.budgetBreakdown,
  permissions: [],
  sideEffects: 'none',
  parse: readBudgetFinding,
  subject: () => null,
  async authorize({ deps, interaction }, { finding }) {
    if (!visibleTeams(deps.config, rolesOf(deps.config, interaction.actor.userId, groupsOf(deps))).includes(finding.team)) {
      throw new BurnrateError(
        'burnrate_forbidden',
        `Only members of ${finding.team} can see its breakdown.`,
        askWhom(deps, finding.team, ['owner']),
      );
    }
  },
  async run({ deps, interaction }, { finding }) {
    const visible = visibleTeams(deps.config, rolesOf(deps.config, interaction.actor.userId, groupsOf(deps)));
    const query = { period: finding.range, team: finding.team, visibleTeams: visible };
    const byService = await loadSpendReport(deps, { ...query, by: 'service' });
    const byResource = await loadSpendReport(deps, { ...query, by: 'resource' });
    return { audit: null, value: { byService, byResource } };
  },
  async answer({ interaction }, { finding }, { byService, byResource }) {
    await interaction.reply.thread(spendSummary(byService, `${finding.team} by service`));
    await interaction.reply.thread(
      spendSummary({ ...byResource, rows: byResource.rows.slice(0, TOP_RESOURCES) }, `${finding.team}, top ${TOP_RESOURCES} resources`),
    );
  },
});

/** The budget finding a Breakdown button names: only budget alerts carry one (their spend has services). */
async function readBudgetFinding(deps: Deps, interaction: ActionInteraction): Promise<{ finding: TrackedFinding }> {
  const { finding } = await readFindingPayload(deps, interaction.value);
  if (finding.kind !== 'findings') throw unknownFinding('/burnrate budget');
  return { finding: finding.finding as TrackedFinding };
}
