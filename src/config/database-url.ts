import { BurnrateError } from '../domain/errors.js';
import type { Config } from './schema.js';

const POSTGRES_URL = /^postgres(ql)?:\/\//;

/**
 * The shared Postgres database to use, or null for the embedded SQLite file. `store.postgres` in
 * burnrate.yml asks for Postgres and names the variable holding the URL; without it a
 * `DATABASE_URL` of the postgres:// kind selects Postgres too, as platforms that provision one
 * set it. A file given with --db always means SQLite.
 */
export function databaseUrl(config: Config, env: NodeJS.ProcessEnv, explicitFile: boolean): string | null {
  if (explicitFile) return null;
  const wanted = config.store.postgres;
  if (!wanted) return POSTGRES_URL.test(env.DATABASE_URL ?? '') ? env.DATABASE_URL! : null;
  const url = env[wanted.urlEnv];
  if (!url) {
    throw new BurnrateError(
      'config_invalid',
      `store.postgres.urlEnv names ${wanted.urlEnv}, which is not set`,
      `Set ${wanted.urlEnv}=postgres://user:password@host:5432/database in the environment, or remove store.postgres to use the embedded SQLite file.`,
    );
  }
  if (!POSTGRES_URL.test(url)) {
    throw new BurnrateError(
      'config_invalid',
      `${wanted.urlEnv} is not a Postgres URL`,
      `Set ${wanted.urlEnv} to a URL of the form postgres://user:password@host:5432/database.`,
    );
  }
  return url;
}
