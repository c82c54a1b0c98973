import type { TeamConfig } from '../../config/schema.js';
import type { ConsoleMessage, ConsoleMessageStore } from '../../store/console-messages.js';
import type { Message } from '../../../templates/message.js';
import { DeliveryError, type ChatPort } from '../../ports/chat-port.js';
import type { PeopleDirectory } from '../../ports/people-directory.js';

/** The console channel of each user's private conversation with burnrate (team ids cannot start with @). */
export const DM_CHANNEL = '@dm';
/** The user's dashboard, as Slack's App Home shows it: drawn when opened, never stored. */
export const HOME_CHANNEL = '@home';

/** What changed, for live listeners: enough to know which view to refresh, never the content. */
export interface ConsoleChange {
  channel: string;
  id: number;
  /** Set when only this user can see the message. */
  privateTo: string | null;
}

export type ConsoleListener = (change: ConsoleChange) => void;

/**
 * The local web console as a chat platform: alerts reach it through the outbox like Slack's, and
 * button clicks update and reply through it like Slack's. Messages are rows of the store (refs
 * are row ids); every write is announced to live listeners, which push it to open browsers.
 */
export class ConsoleChat implements ChatPort {
  readonly platform = 'console';
  // files: pictures (review charts) show inline in the page.
  readonly capabilities = { threads: true, ephemeral: true, modals: false, files: true, inlineImageBytes: null };
  private readonly listeners = new Set<ConsoleListener>();

  constructor(
    private readonly store: ConsoleMessageStore,
    private readonly clock: () => Date,
    /** Who people are, by name: the chat platform's beside it, or the demo organisation's. */
    readonly people?: PeopleDirectory,
  ) {}

  /** Every team has a console channel: the console needs no setup in burnrate.yml. */
  addressOf(team: TeamConfig): string {
    return team.id;
  }

  async post(address: string, message: Message): Promise<{ ref: string }> {
    const posted = await this.store.add({ channel: address, message }, this.clock());
    this.notify(posted);
    return { ref: String(posted.id) };
  }

  async update(address: string, ref: string, message: Message): Promise<void> {
    await this.find(address, ref);
    const updated = await this.store.update(Number(ref), message, this.clock());
    if (updated) this.notify(updated);
  }

  /** Threads are one level deep: a reply to a reply goes in the thread of its root. */
  async reply(address: string, parentRef: string, message: Message): Promise<{ ref: string }> {
    const parent = await this.find(address, parentRef);
    const posted = await this.store.add(
      { channel: address, parentId: parent.parentId ?? parent.id, privateTo: parent.privateTo, message },
      this.clock(),
    );
    this.notify(posted);
    return { ref: String(posted.id) };
  }

  /** A message only `userId` sees (Slack's ephemeral): answers to their commands and clicks. */
  async whisper(channel: string, userId: string, message: Message, options: { author?: string } = {}): Promise<ConsoleMessage> {
    const posted = await this.store.add({ channel, privateTo: userId, author: options.author ?? null, message }, this.clock());
    this.notify(posted);
    return posted;
  }

  /** Registers a live listener; returns the function that removes it. */
  subscribe(listener: ConsoleListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async find(address: string, ref: string): Promise<ConsoleMessage> {
    const message = /^\d+$/.test(ref) ? await this.store.get(Number(ref)) : null;
    // Permanent: the outbox must not retry a message that does not exist (a reset database).
    if (!message || message.channel !== address) throw new DeliveryError(`console message ${ref} does not exist in ${address}`, true);
    return message;
  }

  private notify(message: ConsoleMessage): void {
    const change = { channel: message.channel, id: message.id, privateTo: message.privateTo };
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch {
        // A broken browser connection must not fail the post that was already stored.
      }
    }
  }
}
