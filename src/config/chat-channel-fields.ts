import { z } from 'zod';
import type { ChatChannel, ChatChannelDeclaration } from './chat-channels.js';
import { nonEmpty } from './non-empty.js';

/** The fields a team (and `gpu.unowned`) takes for the declared platforms' channels, each optional. */
export function chatChannelFields(channels: readonly ChatChannelDeclaration[]): Record<string, z.ZodOptional<z.ZodType<ChatChannel>>> {
  return Object.fromEntries(channels.map(({ key, hint }) => [key, z.strictObject({ channel: nonEmpty(hint) }).optional()]));
}
