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

/** A new, empty database on the test server; its URL. */
export async function freshDatabase(): Promise<string> {
  return createDatabase(postgresServerUrl(), `t_${randomBytes(6).toString('hex')}`);
}
