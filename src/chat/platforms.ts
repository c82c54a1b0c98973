import type { Writable } from 'node:stream';
import type { ChatChannelDeclaration } from '../config/chat-channels.js';
import type { Config } from '../config/schema.js';
import type { ChatPlatform } from './chat-platform.js';
import { consolePlatform } from './console/index.js';
import { slackPlatform } from './slack/index.js';
import { teamsPlatform } from './teams/index.js';
import { terminalPlatform } from './terminal/index.js';

/**
 * Every chat platform burnrate speaks, the only list of them: runtime builds their ports, serve
 * their inbound sides, in this order (the remote ones first: the local ones stand in when none of
 * them is configured, and the console names people as the platforms before it do).
 */
export const CHAT_PLATFORMS: readonly ChatPlatform<unknown>[] = [slackPlatform, teamsPlatform, terminalPlatform, consolePlatform];

/** The channel keys burnrate.yml takes under each team and `gpu.unowned`, one per platform that declares one: the loader parses with them. */
export const CHAT_CHANNELS: readonly ChatChannelDeclaration[] = CHAT_PLATFORMS.flatMap((platform) =>
  platform.channel ? [platform.channel] : [],
);

/** A platform that is on, with its settings. */
export interface ConfiguredChat {
  platform: ChatPlatform<unknown>;
  settings: unknown;
}

/**
 * The platforms that are on, with their settings read from the environment (a half configuration
 * throws here, before anything is opened). `remote: false` leaves Slack and Teams off unread (the
 * demo's made-up channels, an answer worker).
 */
export function readChatSettings(
  env: NodeJS.ProcessEnv,
  options: { host: string | null; terminal?: Writable; remote?: boolean },
): ConfiguredChat[] {
  const read = (platform: ChatPlatform<unknown>, remoteConfigured: boolean) => {
    const settings = platform.readSettings(env, {
      host: options.host,
      remoteConfigured,
      ...(options.terminal ? { terminal: options.terminal } : {}),
    });
    return settings === null ? [] : [{ platform, settings }];
  };
  const remote = options.remote === false ? [] : CHAT_PLATFORMS.filter((p) => p.remote).flatMap((p) => read(p, false));
  const local = CHAT_PLATFORMS.filter((p) => !p.remote).flatMap((p) => read(p, remote.length > 0));
  return [...remote, ...local];
}

/** What serve refuses before it starts, platform by platform (each asked, on or off: Teams channels without Teams). */
export function checkChatCanServe(chats: readonly ConfiguredChat[], config: Config, host: string): void {
  for (const platform of CHAT_PLATFORMS)
    platform.checkServe?.(chats.find((chat) => chat.platform === platform)?.settings ?? null, config, host);
}

/** serve's line when no remote platform is configured: how to turn each on, and where messages show meanwhile. */
export function noRemoteChatLine(chats: readonly ConfiguredChat[]): string | null {
  if (chats.some((chat) => chat.platform.remote)) return null;
  const howTo = CHAT_PLATFORMS.filter((platform) => platform.remote).map((platform) => platform.hint);
  const where = chats.map((chat) => chat.platform.hint);
  return `chat: none configured (set ${howTo.join('; ')}), messages print ${where.join(' and ')}`;
}
