import { z } from 'zod';
import { nonEmpty } from './non-empty.js';

/**
 * Where a team's channel is written in burnrate.yml, per chat platform (`slack: { channel: C0123 }`).
 * Each platform's face names its key here (`channelKey`); the console and the terminal need none,
 * every team has a channel there. The schema of burnrate.yml is static and sits below chat/, so
 * the keys are listed here rather than read from the platforms' registry.
 */
export const CHAT_CHANNELS = {
  slack: z.strictObject({ channel: nonEmpty('a Slack channel id such as C0123ABCD') }),
  msteams: z.strictObject({ channel: nonEmpty('a Teams channel or conversation id') }),
};

export type ChatChannelKey = keyof typeof CHAT_CHANNELS;

export const CHAT_CHANNEL_KEYS = Object.keys(CHAT_CHANNELS) as ChatChannelKey[];

/** A channel on each platform, each optional: the keys a team (and `gpu.unowned`) may hold. */
export const chatChannelFields = Object.fromEntries(CHAT_CHANNEL_KEYS.map((key) => [key, CHAT_CHANNELS[key].optional()])) as {
  [K in ChatChannelKey]: z.ZodOptional<(typeof CHAT_CHANNELS)[K]>;
};

export type ChatChannels = { [K in ChatChannelKey]?: z.output<(typeof CHAT_CHANNELS)[K]> };
