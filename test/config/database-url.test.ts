import { describe, expect, it } from 'vitest';
import { databaseUrl } from '../../src/config/database-url.js';
import { configSchema } from '../../src/config/schema.js';
import { errorOf } from '../support/error-of.js';

const URL = 'postgres://burnrate:pw@db:5432/burnrate';
const plain = configSchema.parse({});
const withPostgres = (urlEnv?: string) => configSchema.parse({ store: { postgres: urlEnv ? { urlEnv } : {} } });

describe('where the store lives', () => {
  it('is the SQLite file unless Postgres is asked for', () => {
    expect(databaseUrl(plain, {}, false)).toBeNull();
    expect(databaseUrl(plain, { DATABASE_URL: 'mysql://x' }, false)).toBeNull();
    expect(databaseUrl(plain, { DATABASE_URL: URL }, false)).toBe(URL);
    expect(databaseUrl(plain, { DATABASE_URL: 'postgresql://db/burnrate' }, false)).toBe('postgresql://db/burnrate');
    // --db names a file: it wins over the environment.
    expect(databaseUrl(withPostgres(), { DATABASE_URL: URL }, true)).toBeNull();
  });

  it('reads the URL from the variable store.postgres.urlEnv names', () => {
    expect(databaseUrl(withPostgres(), { DATABASE_URL: URL }, false)).toBe(URL);
    expect(databaseUrl(withPostgres('BURNRATE_PG'), { BURNRATE_PG: URL }, false)).toBe(URL);
  });

  it('says what to set when the variable is missing or not a Postgres URL, never echoing it', () => {
    expect(errorOf(() => databaseUrl(withPostgres('BURNRATE_PG'), {}, false)).message).toBe(
      'store.postgres.urlEnv names BURNRATE_PG, which is not set',
    );
    const wrong = errorOf(() => databaseUrl(withPostgres(), { DATABASE_URL: 'mysql://u:secret@h/db' }, false));
    expect(wrong.message).toBe('DATABASE_URL is not a Postgres URL');
    expect(wrong.describe()).not.toContain('secret');
    expect(configSchema.safeParse({ store: { postgres: { urlEnv: 'postgres://x' } } }).success).toBe(false);
  });
});
