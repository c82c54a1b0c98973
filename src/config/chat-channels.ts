/**
 * Where a team's channel is written in burnrate.yml on one chat platform (`slack: { channel: C0123 }`),
 * under each team and under `gpu.unowned`. Each platform's face declares its own (`channel`); the
 * console and the terminal need none, every team has a channel there. The schema of burnrate.yml sits
 * below chat/, so it names no platform: the registry (chat/platforms.ts) hands the declarations to
 * the loader (`configSchemaWith`).
 */
export interface ChatChannelDeclaration {
  /** burnrate.yml's key. */
  readonly key: string;
  /** What goes in `channel`, for the message when it is missing: "a Slack channel id such as C0123ABCD". */
  readonly hint: string;
}

/** A team's channel on one platform. */
export interface ChatChannel {
  channel: string;
}

/**
 * A team's channel on each platform, by its key, each optional. Empty here: each platform adds its
 * key by declaration merging in its face (`declare module '…/config/chat-channels.js'`), so code that
 * reads a channel is typed while this file names no platform.
 */
export interface ChatChannels {}

/** The channels a configuration names for the unowned instances (or a team), only the platforms it names. */
export function namedChannels(holder: ChatChannels | undefined): ChatChannels {
  return Object.fromEntries(Object.entries(holder ?? {}).filter(([, channel]) => channel !== undefined)) as ChatChannels;
}
