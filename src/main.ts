import { resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { TerminalChat } from './chat/terminal-chat.js';
import type { ChatPort } from './chat/chat-port.js';
import { loadConfig } from './config/load-config.js';
import type { Config } from './config/schema.js';
import type { Deps } from './deps.js';
import { createLogger } from './log.js';
import { buildSources } from './sources/registry.js';
import { DEFAULT_DB_PATH, openStore } from './store/open-store.js';

export interface BuildOptions {
  configPath?: string;
  /** A configuration already in hand (the demo command); skips loading one. */
  config?: Config;
  dbPath?: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Where the terminal "chat" prints; only `serve` uses it, when no chat platform is configured. */
  terminal?: Writable;
  clock?: () => Date;
}

export interface Runtime {
  deps: Deps;
  /** The file the configuration came from, or null for the embedded demo organisation. */
  configPath: string | null;
  dbPath: string;
  close(): Promise<void>;
}

/** The composition root: config, store, sources, chat, clock, logger. Wires; decides nothing. */
export function buildRuntime(options: BuildOptions = {}): Runtime {
  const env = options.env ?? process.env;
  const { config, path } = options.config ? { config: options.config, path: null } : loadConfig(options.configPath, env, options.cwd);
  const given = options.dbPath ?? env.BURNRATE_DB ?? DEFAULT_DB_PATH;
  const dbPath = given === ':memory:' ? given : resolve(options.cwd ?? process.cwd(), given);
  const store = openStore(dbPath);
  const chat: ChatPort[] = options.terminal ? [new TerminalChat(options.terminal)] : [];
  const deps: Deps = {
    config,
    store,
    sources: buildSources(config.sources),
    chat,
    clock: options.clock ?? (() => new Date()),
    log: createLogger(env),
  };
  return { deps, configPath: path, dbPath, close: () => store.close() };
}
