import type { TestProject } from 'vitest/node';
import { startThrowawayPostgres } from '../../bench/throwaway-postgres.js';

// Vitest's global setup: the Postgres tests get a server URL through inject('postgresUrl').
// DATABASE_URL when it is set; else a throwaway server from this machine's PostgreSQL binaries;
// else '' and those tests are skipped, saying how to run them.

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  if (process.env.DATABASE_URL) {
    project.provide('postgresUrl', process.env.DATABASE_URL);
    return () => {};
  }
  const server = await startThrowawayPostgres();
  if (!server) {
    process.stderr.write('Postgres tests skipped: set DATABASE_URL, or install PostgreSQL (apt-get install postgresql).\n');
    project.provide('postgresUrl', '');
    return () => {};
  }
  project.provide('postgresUrl', server.url);
  return () => server.stop();
}
