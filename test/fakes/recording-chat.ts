import type { TeamConfig } from '../../src/config/schema.js';
import { DeliveryError, type ChatCapabilities, type ChatPort } from '../../src/ports/chat-port.js';
import type { Message } from '../../templates/message.js';
import { stripMarkup } from '../../templates/message.js';

/**
 * A chat port that records what it is asked to post. Failures can be queued to play a platform
 * that throttles or breaks; an unconsumed failure fails the test that queued it (see `assertDone`).
 */
export class RecordingChat implements ChatPort {
  readonly platform = 'fake';
  readonly capabilities: ChatCapabilities;
  readonly posted: { address: string; message: Message; op: 'post' | 'update' | 'reply'; ref: string }[] = [];
  private readonly failures: DeliveryError[] = [];

  /** Threads, no files and no inline images unless told otherwise: play another platform's flags. */
  constructor(capabilities: Partial<ChatCapabilities> = {}) {
    this.capabilities = { threads: true, ephemeral: false, modals: false, files: false, inlineImageBytes: null, ...capabilities };
  }

  addressOf(team: TeamConfig): string {
    return `#${team.id}`;
  }

  failNext(error: DeliveryError): void {
    this.failures.push(error);
  }

  async post(address: string, message: Message): Promise<{ ref: string }> {
    return this.record('post', address, message, `ts-${this.posted.length + 1}`);
  }

  async update(address: string, ref: string, message: Message): Promise<void> {
    await this.record('update', address, message, ref);
  }

  async reply(address: string, parentRef: string, message: Message): Promise<{ ref: string }> {
    return this.record('reply', address, message, parentRef);
  }

  private async record(op: 'post' | 'update' | 'reply', address: string, message: Message, ref: string): Promise<{ ref: string }> {
    const failure = this.failures.shift();
    if (failure) throw failure;
    this.posted.push({ address, message, op, ref });
    return { ref };
  }

  headlines(): string[] {
    return this.posted.map((p) => stripMarkup(p.message.summary));
  }

  assertDone(): void {
    if (this.failures.length > 0) throw new Error(`${this.failures.length} queued failure(s) never happened`);
  }
}
