import { randomBytes } from 'node:crypto';
import pg from 'pg';
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
  const server = postgresServerUrl();
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}
