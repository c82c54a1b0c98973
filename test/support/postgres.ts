import { randomBytes } from 'node:crypto';
import { createDatabase } from '../../bench/throwaway-postgres.js';
import { describe, inject } from 'vitest';

/** The test server's URL, or '' when there is none (the tests skip). */
export function postgresServerUrl(): string {
  return inject('postgresUrl');
}

export const postgresAvailable = (): boolean => postgresServerUrl() !== '';

/** describe() for Postgres tests: skipped, saying how to run them, when no server is at hand. */
export function describePostgres(title: string, body: () => void): void {
  if (postgresAvailable()) describe(title, body);
  else describe.skip(`${title} (needs Postgres: set DATABASE_URL or install PostgreSQL)`, body);
}

/**
 * Text sorted as a person would ("a" < "B" < "b", punctuation ignored), as in a database made with
 * a locale such as en_US.UTF-8: the stores must still answer in SQLite's byte order (COLLATE "C"),
 * and a test sees where they do not. Servers without ICU (or older than 15) sort as they are set up.
 */
const LINGUISTIC_COLLATION = "TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C'";

/** A new, empty database on the test server; its URL. */
export async function freshDatabase(): Promise<string> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  return createDatabase(postgresServerUrl(), name, LINGUISTIC_COLLATION).catch(() => createDatabase(postgresServerUrl(), name));
}
