import type { AdaptiveCardInvokeResponse, TurnContext } from '@microsoft/agents-hosting';
import { stripMarkup, type Message } from '../../../templates/message.js';
import { renderAdaptiveCard } from '../../../templates/render/adaptive-card.js';
import { renderPlainText } from '../../../templates/render/plain-text.js';
import type { MessageReply, Reply } from '../../ports/interaction.js';
import { cardActivity } from './teams-card.js';

/**
 * The answer to a command typed to the bot. Teams has no message only one person sees in a
 * channel or group chat: the answer goes to the conversation it was asked in (in a channel, the
 * thread of the question), and personal chat with burnrate is the private place to ask.
 */
export function commandReply(context: TurnContext): Reply {
  return {
    async private(message) {
      await context.sendActivity(cardActivity(message));
    },
  };
}

/**
 * The answer to a card button (Action.Execute), which Teams takes in the invoke response: a
 * refreshed card replaces the message for everyone, or a text shown only to the person who
 * clicked (refusals, dry runs, "already done"). Thread replies are posted under the card at once.
 */
export class CardActionReply implements MessageReply {
  private readonly privates: Message[] = [];
  private updated: Message | null = null;
  private threaded = 0;

  constructor(private readonly postInThread: (message: Message) => Promise<void>) {}

  async private(message: Message): Promise<void> {
    // An answer with buttons (a team picker) cannot travel as text: it goes into the thread under
    // the card, where anyone sees it but only those allowed can use it, and the clicker is told.
    if (message.blocks.some((b) => b.type === 'actions' && b.buttons.length > 0)) {
      await this.postInThread(message);
      this.privates.push({
        summary: message.summary,
        blocks: [{ type: 'text', text: `${stripMarkup(message.summary)} The choices are in the thread under this card.` }],
      });
      return;
    }
    this.privates.push(message);
  }

  async update(message: Message): Promise<void> {
    this.updated = message;
  }

  async thread(message: Message): Promise<void> {
    await this.postInThread(message);
    this.threaded += 1;
  }

  /** What the invoke answers: the refreshed card if there is one, else the words for the clicker. */
  invokeResponse(): AdaptiveCardInvokeResponse {
    if (this.updated)
      return {
        statusCode: 200,
        type: 'application/vnd.microsoft.card.adaptive',
        value: renderAdaptiveCard(this.updated) as Record<string, unknown>,
      };
    const text = this.privates.map((m) => renderPlainText(m)).join('\n\n');
    const said = text || (this.threaded > 0 ? 'Posted in the thread of this alert.' : 'Done.');
    return { statusCode: 200, type: 'application/vnd.microsoft.activity.message', value: said as unknown as Record<string, unknown> };
  }
}
