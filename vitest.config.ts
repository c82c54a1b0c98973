import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    // A Postgres server for the tests that need one (DATABASE_URL, or one started from this machine's binaries).
    globalSetup: ['./test/support/postgres-server.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests start servers and databases of their own; two workers suit a two-core machine.
    pool: 'forks',
    maxWorkers: 2,
  },
});
