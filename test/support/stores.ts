import pg from 'pg';
import { afterAll, afterEach, beforeEach, describe } from 'vitest';
import { openStore } from '../../src/store/sqlite/open-sqlite-store.js';
import { openPostgresStore } from '../../src/store/postgres/open-postgres-store.js';
import type { Store } from '../../src/store/store.js';
import { freshDatabase, postgresAvailable } from './postgres.js';

/** A fresh empty store of one kind for every test, closed after it. */
export interface StoreUnderTest {
  (): Store;
  /** The database's URL on Postgres (a second process may open it too); ':memory:' on SQLite. */
  readonly url: string;
}

/**
 * Runs the same contract tests against both stores: a new in-memory SQLite store per test, and a
 * Postgres store on a database of the describe block's own, emptied before each test. Postgres is
 * skipped with one line when no server is at hand.
 */
export function describeStores(title: string, body: (store: StoreUnderTest) => void): void {
  describe(`${title} [sqlite]`, () => body(storeFixture(async () => ({ store: openStore(':memory:'), url: ':memory:' }))));
  const postgres = () => {
    let url: string | null = null;
    afterAll(async () => {
      url = null;
    });
    body(
      storeFixture(async () => {
        if (url === null) url = await freshDatabase();
        else await emptyDatabase(url);
        const store = openPostgresStore(url, { poolSize: 4 });
        await store.ready();
        return { store, url };
      }),
    );
  };
  if (postgresAvailable()) describe(`${title} [postgres]`, postgres);
  else describe.skip(`${title} [postgres] (needs Postgres: set DATABASE_URL or install PostgreSQL)`, postgres);
}

function storeFixture(open: () => Promise<{ store: Store; url: string }>): StoreUnderTest {
  let current: { store: Store; url: string } | null = null;
  beforeEach(async () => {
    current = await open();
  });
  afterEach(async () => {
    await current?.store.close();
    current = null;
  });
  const get = () => {
    if (!current) throw new Error('the store is open only inside a test');
    return current.store;
  };
  return Object.defineProperty(get, 'url', { get: () => current?.url ?? '' }) as StoreUnderTest;
}

/** Empties every table burnrate made, keeping the schema and its record of migrations. */
async function emptyDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'burnrate_migrations'`,
    );
    if (rows.length > 0) await client.query(`TRUNCATE ${rows.map((r) => `"${r.name}"`).join(', ')} RESTART IDENTITY CASCADE`);
  } finally {
    await client.end();
  }
}
