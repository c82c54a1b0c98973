import { personText } from '../ports/people-directory.js';
import { timeOf } from '../../templates/message.js';
import { BurnrateError } from '../domain/errors.js';
import { ACTION_IDS } from '../domain/action-ids.js';
import { privateReply } from '../../templates/private-reply.js';
import { defineAction } from './action.js';
import { findingAlertNow, readFindingPayload } from './finding-payload.js';
import { snoozeFinding } from './snooze-finding.js';

/**
 * Snooze 24 h / 7 days / to the period's end, from an alert's buttons (a finding of any check): once per click. A repeated
 * click, or a shorter snooze while a longer one runs, changes nothing and tells only the clicker
 * who snoozed until when (the rules are in snoozeFinding, which audits the button and the typed
 * command alike as `snooze`).
 */
export const budgetSnoozeAction = defineAction({
  id: ACTION_IDS.budgetSnooze,
  permissions: [],
  sideEffects: 'records',
  async parse(deps, interaction) {
    const { payload, finding } = await readFindingPayload(deps, interaction.value);
    if (!payload.for)
      throw new BurnrateError(
        'burnrate_payload_invalid',
        'This snooze button does not say for how long.',
        'Use `/burnrate snooze <finding> 24h`.',
      );
    return { finding, duration: payload.for };
  },
  subject: () => null,
  async authorize() {},
  async run({ deps, interaction }, { finding, duration }) {
    return { audit: null, value: await snoozeFinding(deps, interaction.actor, finding.id, duration, { explicit: false }) };
  },
  async answer({ deps, interaction }, { finding, duration }, { outcome, snooze }) {
    if (outcome === 'same') {
      await interaction.reply.private(
        privateReply(`Already snoozed by ${personText(deps, snooze.byUser)} at ${timeOf(snooze.at)} until ${timeOf(snooze.until)}.`),
      );
      return;
    }
    if (outcome === 'longer') {
      await interaction.reply.private(
        privateReply(
          `A longer snooze by ${personText(deps, snooze.byUser)} until ${timeOf(snooze.until)} is active; it was left as it is.`,
          `To end it sooner, type \`/burnrate snooze ${finding.id} ${duration}\`: a typed snooze sets exactly the end you ask for.`,
        ),
      );
      return;
    }
    const alert = await findingAlertNow(deps, finding, interaction.actor.platform);
    if (alert) await interaction.reply.update(alert);
    else await interaction.reply.private(privateReply(`Alerts of ${finding.label} are snoozed until ${timeOf(snooze.until)}.`));
  },
});
