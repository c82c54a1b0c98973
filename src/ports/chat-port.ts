import type { TeamConfig } from '../config/schema.js';
import type { Message } from '../../templates/message.js';
import type { PeopleDirectory } from './people-directory.js';

/** What a platform can do; shared code branches on these flags, never on the platform's name. */
export interface ChatCapabilities {
  threads: boolean;
  ephemeral: boolean;
  modals: boolean;
  files: boolean;
  /**
   * Without files: the largest PNG (bytes) the platform shows inside a message, where a picture
   * travels in the message itself (a data URI in a Teams card); null when it shows none.
   */
  inlineImageBytes: number | null;
  /**
   * The platform draws charts from their numbers (Slack's data_visualization block, Teams' Chart.*
   * card elements): a chart goes as numbers, with the PNG only where it travels inside the message
   * as the fallback. Absent: charts go as pictures.
   */
  nativeCharts?: boolean;
}

/** The one way messages leave burnrate, whatever the platform. */
export interface ChatPort {
  /** Prefix of outbox targets for this port, e.g. `slack` in `slack:C0123ABCD`. */
  readonly platform: string;
  readonly capabilities: ChatCapabilities;
  /** The address of a team's channel on this platform, or null when it has none there. */
  addressOf(team: TeamConfig): string | null;
  /**
   * The address of a direct message to a person (Slack: posting to a user id opens the bot's DM), or
   * null where the platform cannot start one; absent on platforms that never can.
   */
  addressOfUser?(userId: string): string | null;
  /** The platform's people and groups, where burnrate may read them. */
  readonly people?: PeopleDirectory | undefined;
  /**
   * Posts a message; returns the platform's reference to it (Slack ts, Teams activity id). `key`
   * travels with the message where the platform keeps such data (Slack's message metadata), so
   * `findPosted` can tell later whether a post whose answer was lost went out.
   */
  post(address: string, message: Message, options?: PostOptions): Promise<{ ref: string | null }>;
  /** Replaces a message posted earlier. */
  update(address: string, ref: string, message: Message): Promise<void>;
  /** Replies in the thread of a message posted earlier (a plain post where threads are missing). */
  reply(address: string, parentRef: string, message: Message, options?: PostOptions): Promise<{ ref: string | null }>;
  /**
   * The reference of a message this bot posted with `key` since `since` (in the thread of
   * `parentRef` for a reply), or null when there is none. Absent where the platform gives a bot
   * no way to read what it posted: a post in doubt is then posted again.
   */
  findPosted?(address: string, key: string, where: { since: Date; parentRef: string | null }): Promise<string | null>;
}

export interface PostOptions {
  /** The outbox item's key, unique per intended message. */
  key?: string;
}

/** A delivery failure with the platform's advice on retrying. */
export class DeliveryError extends Error {
  constructor(
    message: string,
    /** Never retry: the target is gone or the message is invalid. */
    readonly permanent = false,
    /** The platform asked to wait this long (Slack's Retry-After). */
    readonly retryAfterMs?: number,
    /** The request may have been carried out although no answer came (a timeout, a reset connection, a 5xx). */
    readonly maybeDelivered = false,
    /**
     * The platform did not answer (refused, timed out, reset, a 5xx): an outage, not an answer. A
     * look-up in doubt failing so is retried, never given up for an unchecked post, which an outage
     * could take and still answer 503.
     */
    readonly unreachable = false,
  ) {
    super(message);
    this.name = 'DeliveryError';
  }
}

/**
 * A look for a post in doubt that could not finish yet: a page that may have been cut short, or the
 * platform's read limit (one call a minute) not yet renewed. Neither says the post is missing, so
 * the item stays in doubt and is looked for again after `waitMs` (the usual backoff when absent):
 * never posted on this answer, and never counted among the look-ups that failed.
 */
export class LookupUnfinished extends DeliveryError {
  constructor(
    message: string,
    readonly waitMs?: number,
  ) {
    super(message);
    this.name = 'LookupUnfinished';
  }
}

export function targetOf(port: ChatPort, address: string): string {
  return `${port.platform}:${address}`;
}

export function splitTarget(target: string): { platform: string; address: string } {
  const at = target.indexOf(':');
  return { platform: target.slice(0, at), address: target.slice(at + 1) };
}

/** The chat port of one platform (where a click came from, where a message went), if it runs here. */
export function chatPortOn<P extends { platform: string }>(ports: readonly P[], platform: string): P | undefined {
  return ports.find((port) => port.platform === platform);
}
