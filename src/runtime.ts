import type { Writable } from 'node:stream';
import { readChatSettings } from './chat/platforms.js';
import { loadConfig } from './config/load-config.js';
import type { Config } from './config/schema.js';
import { buildCore, type Runtime } from './runtime-core.js';

export type { Runtime };

export interface BuildOptions {
  configPath?: string;
  /** A configuration already in hand (the demo command); skips loading one. */
  config?: Config;
  dbPath?: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Where the terminal "chat" prints when no remote chat platform is configured; only `serve` gives it. */
  terminal?: Writable;
  /**
   * Add the chat platforms configured in the environment (Slack, Teams), so alerts found by any command
   * are queued for them; `serve` delivers. Off for the demo, whose channels are made up.
   */
  chatPlatforms?: boolean;
  clock?: () => Date;
}

/** The composition root: config, store, sources, chat, clock, logger. Wires; decides nothing. */
export function buildRuntime(options: BuildOptions = {}): Runtime {
  const env = options.env ?? process.env;
  const { config, path } = options.config ? { config: options.config, path: null } : loadConfig(options.configPath, env, options.cwd);
  // Read before opening anything: a half-configured Slack is an error that names what is missing.
  const chats = readChatSettings(env, {
    host: null,
    remote: options.chatPlatforms !== false,
    ...(options.terminal ? { terminal: options.terminal } : {}),
  });
  const runtime = buildCore({
    config,
    configPath: path,
    env,
    ...(options.dbPath !== undefined ? { dbPath: options.dbPath } : {}),
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const { store, log } = runtime.deps;
  for (const { platform, settings } of chats)
    if (platform.createPort) runtime.deps.chat.push(platform.createPort(settings, { config, store, log }));
  return runtime;
}
