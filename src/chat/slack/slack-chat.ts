import { createHash } from 'node:crypto';
import type { types } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import type { TeamConfig } from '../../config/schema.js';
import type { SlackConfig } from '../../config/slack-schema.js';
import type { ImageBlock, Message } from '../../../templates/message.js';
import { renderBlockKit } from '../../../templates/render/block-kit.js';
import { DeliveryError, type ChatPort, type PostOptions } from '../../ports/chat-port.js';
import type { PeopleDirectory } from '../../ports/people-directory.js';
import { toDeliveryError } from './slack-errors.js';
import { createSlackClient } from './slack-client.js';
import { SlackDirectory } from './slack-directory.js';
import { HistoryReader } from './history-reader.js';
import type { SlackSettings } from './slack-settings.js';

/** The metadata event type of burnrate's posts; its payload holds the outbox item's key. */
const METADATA_EVENT = 'burnrate_outbox_item';

/** Slack's chat port, with its people and user groups read through the same client. */
export function createSlackChat(settings: SlackSettings, log: Logger, config: SlackConfig = { historyLimit: 'limited' }): SlackChat {
  const client = createSlackClient(settings, log);
  return new SlackChat(client, new SlackDirectory(client, log), new HistoryReader(config.historyLimit));
}

/**
 * The Slack side of the chat port: messages go out as Block Kit through the Web API, and every
 * failure comes back as a DeliveryError whose `permanent` and `retryAfterMs` tell the outbox what
 * to do next. The WebClient is passed in (see createSlackClient) so tests can aim it at a fake.
 */
export class SlackChat implements ChatPort {
  readonly platform = 'slack';
  readonly capabilities = { threads: true, ephemeral: true, modals: true, files: true, inlineImageBytes: null, nativeCharts: true };

  constructor(
    private readonly client: WebClient,
    readonly people?: PeopleDirectory,
    /** How this workspace's history may be read; the cautious Tier-1 pacing unless told otherwise. */
    private readonly history: HistoryReader = new HistoryReader('limited'),
  ) {}

  /** Slack user ids (U…, W… in Enterprise Grid): chat.postMessage to one lands in the bot's DM with that person. */
  addressOfUser(userId: string): string | null {
    return /^[UW][A-Z0-9]{2,}$/.test(userId) ? userId : null;
  }

  addressOf(team: TeamConfig): string | null {
    return team.slack?.channel ?? null;
  }

  async post(address: string, message: Message, options: PostOptions = {}): Promise<{ ref: string | null }> {
    return this.send(address, undefined, message, options.key);
  }

  async update(address: string, ref: string, message: Message): Promise<void> {
    await this.call('chat.update', () => this.client.chat.update({ channel: address, ts: ref, ...render(message) }));
  }

  async reply(address: string, parentRef: string, message: Message, options: PostOptions = {}): Promise<{ ref: string | null }> {
    return this.send(address, parentRef, message, options.key);
  }

  /**
   * Reads the channel (or the thread) back, from `since` to a minute from now, for a message carrying
   * the key in its metadata (include_all_metadata; chat.postMessage attached it), or a file share whose
   * name carries the key. conversations.history and .replies need channels:history (groups:history
   * for a private channel); without them the item is posted again, as a suspected duplicate. Slack's
   * limits are the HistoryReader's: a page that may be cut short is never taken for "not posted".
   */
  async findPosted(address: string, key: string, where: { since: Date; parentRef: string | null }): Promise<string | null> {
    const tag = fileTagOf(key);
    return this.history.find({
      key,
      since: where.since.getTime(),
      order: where.parentRef ? 'oldest-first' : 'newest-first',
      read: async (window, limit) => {
        const args = { channel: address, ...window, inclusive: true, include_all_metadata: true, limit };
        const result = where.parentRef
          ? await this.call('conversations.replies', () => this.client.conversations.replies({ ...args, ts: where.parentRef! }))
          : await this.call('conversations.history', () => this.client.conversations.history(args));
        return { messages: result.messages ?? [], hasMore: result.has_more === true || Boolean(result.response_metadata?.next_cursor) };
      },
      match: (m) => {
        if (keyOf(m) === key) return m.ts ?? null;
        // A post that is only a picture is a file share, without metadata: its file's name carries the key.
        // Its reference is what the post returned: the thread it went into, else the share itself.
        if (m.files?.some((f) => f.name?.includes(tag))) return where.parentRef ?? m.ts ?? null;
        return null;
      },
      marks: [key, tag],
      marksOf: (m) => [
        ...(keyOf(m) ? [keyOf(m)!] : []),
        ...(m.files ?? []).flatMap((f) => /-(k[0-9a-f]{16})(\.[^.]*)?$/.exec(f.name ?? '')?.[1] ?? []),
      ],
    });
  }

  /**
   * Posts the message; its pictures go as files (files.uploadV2: get an upload URL, upload, complete)
   * into the thread, or into the new message's thread for a top-level post. A message that is only
   * a picture becomes the file, with the summary as its comment.
   */
  private async send(
    address: string,
    threadTs: string | undefined,
    message: Message,
    key: string | undefined,
  ): Promise<{ ref: string | null }> {
    const images = message.blocks.filter((b): b is ImageBlock => b.type === 'image');
    const rest = { ...message, blocks: message.blocks.filter((b) => b.type !== 'image') };
    let ref: string | null = null;
    if (images.length === 0 || rest.blocks.length > 0) {
      const metadata = key ? { metadata: { event_type: METADATA_EVENT, event_payload: { key } } } : {};
      // News in a thread (an escalation) is shown in the channel as well, where people see it.
      const thread = threadTs
        ? message.broadcast
          ? { thread_ts: threadTs, reply_broadcast: true as const }
          : { thread_ts: threadTs }
        : {};
      const result = await this.call('chat.postMessage', () =>
        this.client.chat.postMessage({ channel: address, ...thread, ...render(rest), ...metadata }),
      );
      ref = result.ts ?? null;
    }
    if (images.length === 0) return { ref };
    const thread = threadTs ?? ref ?? undefined;
    await this.call('files.uploadV2', () =>
      this.client.filesUploadV2({
        channel_id: address,
        ...(thread ? { thread_ts: thread } : {}),
        ...(rest.blocks.length === 0 ? { initial_comment: message.summary } : {}),
        file_uploads: images.map((image) => ({
          file: Buffer.from(image.png, 'base64'),
          // A picture alone is a message without metadata: the key travels in its file's name,
          // so findPosted can tell whether an upload in doubt went out.
          filename: rest.blocks.length === 0 && key ? taggedFilename(image.filename, key) : image.filename,
          title: image.title,
          alt_text: image.alt,
        })),
      }),
    );
    return { ref: ref ?? thread ?? null };
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

/** The outbox key a message of burnrate carries in its metadata, if any. */
function keyOf(m: { metadata?: { event_type?: string; event_payload?: unknown } }): string | undefined {
  if (m.metadata?.event_type !== METADATA_EVENT) return undefined;
  const key = (m.metadata.event_payload as Record<string, unknown> | undefined)?.key;
  return typeof key === 'string' ? key : undefined;
}

/** A short digest of an outbox key, safe in a file name: the same key always gives the same tag. */
function fileTagOf(key: string): string {
  return `k${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
}

/** `chart.png` becomes `chart-k0123456789abcdef.png`. */
function taggedFilename(filename: string, key: string): string {
  const dot = filename.lastIndexOf('.');
  const [base, ext] = dot > 0 ? [filename.slice(0, dot), filename.slice(dot)] : [filename, ''];
  return `${base}-${fileTagOf(key)}${ext}`;
}
