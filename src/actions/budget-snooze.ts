import { utcMinute } from '../domain/utc-minute.js';
import { BurnrateError } from '../domain/errors.js';
import { errorMessage } from '../../templates/error-message.js';
import type { ActionSpec } from './action.js';
import { currentAlertMessage } from './alert-notes.js';
import { readFindingPayload } from './finding-payload.js';
import { snoozeFinding } from './snooze-finding.js';

/**
 * Snooze 24 h / 7 days / to the period's end, from the alert's buttons: once per click. A repeated
 * click, or a shorter snooze while a longer one runs, changes nothing and tells only the clicker
 * who snoozed until when (the rules are in snoozeFinding).
 */
export const budgetSnoozeAction: ActionSpec = {
  id: 'budget.snooze',
  permissions: [],
  async run(deps, interaction) {
    const { payload, finding } = await readFindingPayload(deps, interaction.value);
    if (!payload.for)
      throw new BurnrateError(
        'burnrate_payload_invalid',
        'This snooze button does not say for how long.',
        'Use `/burnrate snooze <finding> 24h`.',
      );
    const { outcome, snooze } = await snoozeFinding(deps, interaction.actor, finding.id, payload.for, { explicit: false });
    if (outcome === 'same') {
      await interaction.reply.private(
        errorMessage(`Already snoozed by ${snooze.byUser} at ${utcMinute(snooze.at)} until ${utcMinute(snooze.until)}.`),
      );
      return;
    }
    if (outcome === 'longer') {
      await interaction.reply.private(
        errorMessage(
          `A longer snooze by ${snooze.byUser} until ${utcMinute(snooze.until)} is active; it was left as it is.`,
          `To end it sooner, type \`/burnrate snooze ${finding.id} ${payload.for}\`: a typed snooze sets exactly the end you ask for.`,
        ),
      );
      return;
    }
    await interaction.reply.update(await currentAlertMessage(deps, finding));
  },
};
