import { rolesOf, visibleTeams } from '../domain/roles.js';
import { BurnrateError } from '../domain/errors.js';
import { ACTION_IDS } from '../domain/action-ids.js';
import { CHECKS } from '../checks/index.js';
import { groupsOf } from '../ports/people-directory.js';
import { inTimeZone } from '../../templates/message.js';
import { defineAction } from './action.js';
import { readFindingPayload } from './finding-payload.js';
import { askWhom } from './team-role.js';

/**
 * An alert's Details button, on a finding of any check that has details: the evidence, method and
 * caveats the alert leaves out to stay short, answered to the one who clicked. It reads only, so a
 * second click answers the same again and nothing is audited; only people who see the team's
 * spend may read it (an alert of no team: anyone in its channel).
 */
export const findingDetailsAction = defineAction({
  id: ACTION_IDS.findingDetails,
  permissions: [],
  sideEffects: 'none',
  parse: async (deps, interaction) => readFindingPayload(deps, interaction.value),
  subject: () => null,
  async authorize({ deps, interaction }, { finding }) {
    if (finding.team === null) return;
    if (!visibleTeams(deps.config, rolesOf(deps.config, interaction.actor.userId, groupsOf(deps))).includes(finding.team))
      throw new BurnrateError(
        'burnrate_forbidden',
        `Only members of ${finding.team} can see its details.`,
        askWhom(deps, finding.team, ['owner']),
      );
  },
  async run({ deps }, { finding }) {
    const face = CHECKS.find((c) => c.findingKind === finding.kind)?.findings;
    if (!face?.details)
      throw new BurnrateError('burnrate_no_details', 'This alert has no details to show.', 'The alert itself says all burnrate knows.');
    const team = deps.config.teams.find((t) => t.id === finding.team);
    return { audit: null, value: inTimeZone(face.details(deps, finding), team?.timezone) };
  },
  async answer({ interaction }, _payload, details) {
    await interaction.reply.private(details);
  },
});
