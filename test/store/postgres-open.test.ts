import pg from 'pg';
import { expect, it } from 'vitest';
import { openPostgresStore } from '../../src/store/postgres/open-postgres-store.js';
import { MIGRATIONS as PG_MIGRATIONS } from '../../src/store/migrations.js';
import { BurnrateError } from '../../src/domain/errors.js';
import { describePostgres, freshDatabase } from '../support/postgres.js';

describePostgres('opening the Postgres store', () => {
  it('migrates a new database once when several replicas open it together', async () => {
    const url = await freshDatabase();
    const stores = Array.from({ length: 4 }, () => openPostgresStore(url, { poolSize: 2 }));
    try {
      await Promise.all(stores.map((s) => s.ready()));
      expect(await stores[3]!.isEmpty()).toBe(true);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ key: string }>('SELECT key FROM burnrate_migrations ORDER BY key');
      expect(rows.map((r) => r.key)).toEqual(PG_MIGRATIONS.map((m) => m.key));
    } finally {
      await client.end();
    }
  });

  it('refuses a database a newer burnrate migrated, saying what to do', async () => {
    const url = await freshDatabase();
    const first = openPostgresStore(url);
    await first.ready();
    await first.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`INSERT INTO burnrate_migrations (key, applied_at) VALUES ('9999-from-the-future', 'x')`);
    await client.end();
    const store = openPostgresStore(url);
    try {
      const error = await rejection(store.ready());
      expect(error.message).toContain('migrated by a newer burnrate (9999-from-the-future)');
      await expect(store.spend.dailyByTeam('2026-11-01')).rejects.toThrow(/newer burnrate/);
    } finally {
      await store.close();
    }
  });

  it('says which database it cannot reach, without its password', async () => {
    const store = openPostgresStore('postgres://burnrate:s3cret-pw@127.0.0.1:1/burnrate');
    try {
      const error = await rejection(store.ready());
      expect(error.message).toContain('cannot open database postgres://burnrate:***@127.0.0.1:1/burnrate');
      expect(JSON.stringify({ message: error.message, hint: error.hint })).not.toContain('s3cret-pw');
    } finally {
      await store.close();
    }
  });
});

async function rejection(promise: Promise<unknown>): Promise<BurnrateError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BurnrateError);
  return error as BurnrateError;
}
