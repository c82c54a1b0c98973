import { Activity, ActivityTypes } from '@microsoft/agents-activity';
import { CardFactory } from '@microsoft/agents-hosting';
import { stripMarkup, type Message } from '../../../templates/message.js';
import { renderAdaptiveCard } from '../../../templates/render/adaptive-card.js';

/**
 * A message as a Teams activity: the Adaptive Card rendered from the same template as Slack's
 * Block Kit, with the summary as `summary` (what notifications and the activity feed show).
 * `fields` adds what the connector call needs (the sender, the id of the activity replaced).
 */
export function cardActivity(message: Message, fields: Record<string, unknown> = {}): Activity {
  const summary = stripMarkup(message.summary);
  return Activity.fromObject({
    type: ActivityTypes.Message,
    ...(summary ? { summary } : {}),
    attachments: [CardFactory.adaptiveCard(renderAdaptiveCard(message))],
    ...fields,
  });
}
