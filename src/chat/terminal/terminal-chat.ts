import type { Writable } from 'node:stream';
import type { TeamConfig } from '../../config/schema.js';
import type { Message } from '../../../templates/message.js';
import { renderPlainText } from '../../../templates/render/plain-text.js';
import type { ChatPort } from '../../ports/chat-port.js';

/**
 * Prints messages as readable text: what `npm start` shows when no chat platform is configured,
 * one "channel" per team.
 */
export class TerminalChat implements ChatPort {
  readonly platform = 'terminal';
  readonly capabilities = { threads: false, ephemeral: false, modals: false, files: false, inlineImageBytes: null };
  private posted = 0;

  constructor(private readonly out: Writable) {}

  addressOf(team: TeamConfig): string {
    return team.id;
  }

  async post(address: string, message: Message): Promise<{ ref: string }> {
    return this.print(`#${address}`, message);
  }

  async update(address: string, ref: string, message: Message): Promise<void> {
    await this.print(`#${address} (message ${ref} updated)`, message);
  }

  async reply(address: string, parentRef: string, message: Message): Promise<{ ref: string }> {
    return this.print(`#${address} (thread of ${parentRef})`, message);
  }

  private async print(heading: string, message: Message): Promise<{ ref: string }> {
    this.out.write(`\n── ${heading} ${'─'.repeat(Math.max(0, 60 - heading.length))}\n${renderPlainText(message)}\n`);
    this.posted += 1;
    return { ref: String(this.posted) };
  }
}
