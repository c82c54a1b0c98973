import { resolve } from 'node:path';
import type { Config } from './config/schema.js';
import { databaseUrl } from './config/database-url.js';
import type { Deps } from './deps.js';
import { createLogger } from './log.js';
import { buildGpuDeps } from './providers/gpu-registry.js';
import { buildSources } from './providers/registry.js';
import { DEFAULT_DB_PATH, openStore } from './store/sqlite/open-sqlite-store.js';
import { openPostgresStore } from './store/postgres/open-postgres-store.js';

export interface CoreOptions {
  config: Config;
  /** The file the configuration came from, or null for the embedded demo organisation. */
  configPath: string | null;
  dbPath?: string;
  env: NodeJS.ProcessEnv;
  cwd?: string;
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
 * The composition root without chat: store, sources, GPU parts, clock, logger, and no chat port
 * yet. runtime.ts adds the chat platforms; an answer worker builds only this, so a worker thread
 * never loads a platform it does not post to (its answers go to Slack's response_url). Wires; decides nothing.
 */
export function buildCore(options: CoreOptions): Runtime {
  const { config, env } = options;
  const given = options.dbPath ?? env.BURNRATE_DB ?? DEFAULT_DB_PATH;
  const dbPath = given === ':memory:' ? given : resolve(options.cwd ?? process.cwd(), given);
  const postgresUrl = databaseUrl(config, env, options.dbPath !== undefined);
  const store = postgresUrl ? openPostgresStore(postgresUrl) : openStore(dbPath);
  const log = createLogger(env);
  const sources = buildSources(config, env);
  const deps: Deps = {
    config,
    store,
    sources: sources.spend,
    budgetSources: sources.budgets,
    chat: [],
    clock: options.clock ?? (() => new Date()),
    log,
  };
  const gpu = buildGpuDeps(config, env);
  if (gpu) deps.gpu = gpu;
  return { deps, configPath: options.configPath, dbPath: postgresUrl ? null : dbPath, close: () => store.close() };
}
