import type { types } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { TeamConfig } from '../../config/schema.js';
import type { Message } from '../../../templates/message.js';
import { renderBlockKit } from '../../../templates/render/block-kit.js';
import { DeliveryError, type ChatPort } from '../chat-port.js';
import { toDeliveryError } from './slack-errors.js';

/**
 * The Slack side of the chat port: messages go out as Block Kit through the Web API, and every
 * failure comes back as a DeliveryError whose `permanent` and `retryAfterMs` tell the outbox what
 * to do next. The WebClient is passed in (see createSlackClient) so tests can aim it at a fake.
 */
export class SlackChat implements ChatPort {
  readonly platform = 'slack';
  readonly capabilities = { threads: true, ephemeral: true, modals: true, files: true };

  constructor(private readonly client: WebClient) {}

  addressOf(team: TeamConfig): string | null {
    return team.slack?.channel ?? null;
  }

  async post(address: string, message: Message): Promise<{ ref: string | null }> {
    const result = await this.call('chat.postMessage', () => this.client.chat.postMessage({ channel: address, ...render(message) }));
    return { ref: result.ts ?? null };
  }

  async update(address: string, ref: string, message: Message): Promise<void> {
    await this.call('chat.update', () => this.client.chat.update({ channel: address, ts: ref, ...render(message) }));
  }

  async reply(address: string, parentRef: string, message: Message): Promise<{ ref: string | null }> {
    const result = await this.call('chat.postMessage', () => this.client.chat.postMessage({ channel: address, thread_ts: parentRef, ...render(message) }));
    return { ref: result.ts ?? null };
  }

  private async call<T>(method: string, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw toDeliveryError(method, error);
    }
  }
}

/**
 * Block Kit for a message. The renderer throws only on a template bug (an over-long action id),
 * which no retry can fix, so that is a permanent failure rather than eight doomed attempts.
 */
function render(message: Message): { text: string; blocks: types.KnownBlock[] } {
  try {
    const { text, blocks } = renderBlockKit(message);
    return { text, blocks: blocks as types.KnownBlock[] };
  } catch (error) {
    throw new DeliveryError(`cannot render message for Slack: ${(error as Error).message}`, true);
  }
}
