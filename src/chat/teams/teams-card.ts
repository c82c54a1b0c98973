import { ActivityTypes, CardFactory, type Activity } from 'botbuilder';
import { stripMarkup, type Message } from '../../../templates/message.js';
import { renderAdaptiveCard } from '../../../templates/render/adaptive-card.js';

/**
 * A message as a Teams activity: the Adaptive Card rendered from the same template as Slack's
 * Block Kit, with the summary as `summary` (what notifications and the activity feed show).
 */
export function cardActivity(message: Message): Partial<Activity> {
  return {
    type: ActivityTypes.Message,
    summary: stripMarkup(message.summary),
    attachments: [CardFactory.adaptiveCard(renderAdaptiveCard(message))],
  };
}
