import type { Writable } from 'node:stream';
import { renderPlainText } from '../../../templates/render/plain-text.js';
import type { ChatPlatform } from '../chat-platform.js';
import { TerminalChat } from './terminal-chat.js';

/** Prints messages as text where serve runs, when no remote platform is configured. */
export const terminalPlatform: ChatPlatform<{ out: Writable }> = {
  id: 'terminal',
  remote: false,
  hint: 'here',
  render: renderPlainText,
  readSettings: (_env, { terminal, remoteConfigured }) => (terminal && !remoteConfigured ? { out: terminal } : null),
  createPort: async ({ out }) => new TerminalChat(out),
};
