import type { TeamConfig } from '../config/schema.js';
import type { Message } from '../../templates/message.js';

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
}

/** The one way messages leave burnrate, whatever the platform. */
export interface ChatPort {
  /** Prefix of outbox targets for this port, e.g. `slack` in `slack:C0123ABCD`. */
  readonly platform: string;
  readonly capabilities: ChatCapabilities;
  /** The address of a team's channel on this platform, or null when it has none there. */
  addressOf(team: TeamConfig): string | null;
  /** Posts a message; returns the platform's reference to it (Slack ts, Teams activity id). */
  post(address: string, message: Message): Promise<{ ref: string | null }>;
  /** Replaces a message posted earlier. */
  update(address: string, ref: string, message: Message): Promise<void>;
  /** Replies in the thread of a message posted earlier (a plain post where threads are missing). */
  reply(address: string, parentRef: string, message: Message): Promise<{ ref: string | null }>;
}

/** A delivery failure with the platform's advice on retrying. */
export class DeliveryError extends Error {
  constructor(
    message: string,
    /** Never retry: the target is gone or the message is invalid. */
    readonly permanent = false,
    /** The platform asked to wait this long (Slack's Retry-After). */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'DeliveryError';
  }
}

export function targetOf(port: ChatPort, address: string): string {
  return `${port.platform}:${address}`;
}

export function splitTarget(target: string): { platform: string; address: string } {
  const at = target.indexOf(':');
  return { platform: target.slice(0, at), address: target.slice(at + 1) };
}
