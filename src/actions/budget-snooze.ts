import { BurnrateError } from '../errors.js';
import type { ActionSpec } from './action.js';
import { currentAlertMessage } from './alert-notes.js';
import { readFindingPayload } from './finding-payload.js';
import { snoozeFinding } from './snooze-finding.js';

/** Snooze 24 h / 7 days / to the period's end, from the alert's buttons. */
export const budgetSnoozeAction: ActionSpec = {
  id: 'budget.snooze',
  permissions: [],
  async run(deps, interaction) {
    const { payload, finding } = await readFindingPayload(deps, interaction.value);
    if (!payload.for) throw new BurnrateError('burnrate_payload_invalid', 'This snooze button does not say for how long.', 'Use `/burnrate snooze <finding> 24h`.');
    await snoozeFinding(deps, interaction.actor, finding.id, payload.for);
    await interaction.reply.update(await currentAlertMessage(deps, finding));
  },
};
