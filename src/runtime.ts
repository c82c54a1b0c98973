import { dirname, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { CHAT_CHANNELS, readChatSettings } from './chat/platforms.js';
import type { ChatPort } from './ports/chat-port.js';
import { loadConfig } from './config/load-config.js';
import type { Config } from './config/schema.js';
import type { Deps, GpuDeps } from './deps.js';
import { createLogger } from './log.js';
import { buildGpuDeps } from './providers/gpu-registry.js';
import { buildSources } from './providers/registry.js';
import { databaseUrl } from './config/database-url.js';
import { DEFAULT_DB_PATH, openStore } from './store/sqlite/open-sqlite-store.js';

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

export interface Runtime {
  deps: Deps;
  /** The file the configuration came from, or null for the embedded demo organisation. */
  configPath: string | null;
  /** The SQLite file; null when the store is a shared Postgres database. */
  dbPath: string | null;
  close(): Promise<void>;
}

/**
 * The composition root: config, store, sources, chat, clock, logger. Wires; decides nothing. Loads
 * only what the configuration asks for: `pg` for a Postgres store, a chat platform's SDK for its
 * port, and (through the lazy sources) DuckDB or a cloud SDK on a source's first pull, so that a
 * command reading the local store starts at once.
 */
export async function buildRuntime(options: BuildOptions = {}): Promise<Runtime> {
  const env = options.env ?? process.env;
  const given = options.dbPath ?? env.BURNRATE_DB ?? DEFAULT_DB_PATH;
  const dbPath = given === ':memory:' ? given : resolve(options.cwd ?? process.cwd(), given);
  // burnrate.yml's validated form is kept beside the database file, so later commands skip validating it.
  const { config, path } = options.config
    ? { config: options.config, path: null }
    : await loadConfig(options.configPath, CHAT_CHANNELS, env, options.cwd, dbPath === ':memory:' ? {} : { validatedIn: dirname(dbPath) });
  // Read before opening anything: a half-configured Slack is an error that names what is missing.
  const chats = readChatSettings(env, {
    host: null,
    remote: options.chatPlatforms !== false,
    ...(options.terminal ? { terminal: options.terminal } : {}),
  });
  const postgresUrl = databaseUrl(config, env, options.dbPath !== undefined);
  const store = postgresUrl
    ? (await import('./store/postgres/open-postgres-store.js')).openPostgresStore(postgresUrl, { fx: config.fx })
    : openStore(dbPath, { fx: config.fx });
  const log = createLogger(env);
  const chat: ChatPort[] = await Promise.all(
    chats.flatMap(({ platform, settings }) => (platform.createPort ? [platform.createPort(settings, { config, store, log })] : [])),
  );
  const sources = buildSources(config, env);
  const deps: Deps = {
    config,
    store,
    sources: sources.spend,
    budgetSources: sources.budgets,
    anomalySources: sources.anomalies,
    chat,
    clock: options.clock ?? (() => new Date()),
    log,
  };
  // The demo organisation's GPU fleet is built when a command first asks for it: the fleet and the
  // price catalog behind it cost `spend` and `budgets`, which never read them, a tenth of their start.
  let gpu: { value: GpuDeps | undefined } | undefined;
  Object.defineProperty(deps, 'gpu', {
    enumerable: true,
    configurable: true,
    get: () => (gpu ??= { value: buildGpuDeps(config, env) }).value,
    set: (value: GpuDeps | undefined) => (gpu = { value }),
  });
  // GPU sources of the configuration's own are built at once (cheaply: their SDKs load on first use),
  // so that a missing bearer token stops burnrate before anything runs.
  if (config.gpu.metrics.length > 0 || config.gpu.inventory.length > 0) void deps.gpu;
  return { deps, configPath: path, dbPath: postgresUrl ? null : dbPath, close: () => store.close() };
}
