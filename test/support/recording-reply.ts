import type { Actor, ActionInteraction, CommandInteraction, MessageReply } from '../../src/ports/interaction.js';
import type { Message } from '../../templates/message.js';
import { renderPlainText } from '../../templates/render/plain-text.js';

/** A reply that records what the dispatcher answered, by channel of answer. */
export class RecordingReply implements MessageReply {
  readonly privates: Message[] = [];
  readonly updates: Message[] = [];
  readonly threads: Message[] = [];

  async private(message: Message): Promise<void> {
    this.privates.push(message);
  }

  async update(message: Message): Promise<void> {
    this.updates.push(message);
  }

  async thread(message: Message): Promise<void> {
    this.threads.push(message);
  }

  /** The single private answer, as text. */
  text(): string {
    if (this.privates.length !== 1) throw new Error(`expected one private answer, got ${this.privates.length}`);
    return renderPlainText(this.privates[0]!);
  }
}

export function actor(userId: string): Actor {
  return { platform: 'test', userId };
}

export function command(userId: string, text: string): CommandInteraction & { reply: RecordingReply } {
  return { kind: 'command', actor: actor(userId), text, channel: null, reply: new RecordingReply() };
}

export function click(userId: string, action: string, value: string): ActionInteraction & { reply: RecordingReply } {
  return { kind: 'action', actor: actor(userId), action, value, message: { target: 'test:C1', ref: '1' }, reply: new RecordingReply() };
}
