import { BurnrateError } from '../../domain/errors.js';
import type { FxRates } from '../../domain/fx.js';
import { assembleStore } from '../assemble-store.js';
import { databaseTooNew, UnknownMigrationError } from '../migrations.js';
import type { Store } from '../store.js';
import { POSTGRES_LEASE_CLOCK } from './pg-dialect.js';
import { competeForLeadership } from './pg-leadership.js';
import { migratePostgres } from './pg-migrations.js';
import { connectPool, PostgresSession, redactUrl } from './pg-session.js';

/**
 * Opens the shared Postgres store at `url`. It is handed out at once; its migrations run in the
 * background and every query waits for them, so `ready()` (or the first query) reports a database
 * that cannot be reached, with the URL's password left out. `fx` is burnrate.yml's exchange rates (assembleStore).
 */
export function openPostgresStore(url: string, options: { poolSize?: number; fx?: FxRates } = {}): Store {
  const location = redactUrl(url);
  const pool = connectPool(url, options.poolSize);
  const ready = migratePostgres(new PostgresSession(pool)).catch((error: unknown) => Promise.reject(unavailable(location, error)));
  // Read by the first query, or by ready(); never an unhandled rejection on its own.
  ready.catch(() => {});
  return assembleStore(
    new PostgresSession(pool, ready),
    POSTGRES_LEASE_CLOCK,
    {
      location,
      shared: true,
      ready: () => ready,
      competeForLeadership: (leadership) => competeForLeadership(url, leadership),
      close: () => pool.end(),
    },
    options.fx,
  );
}

function unavailable(location: string, error: unknown): BurnrateError {
  if (error instanceof UnknownMigrationError)
    return databaseTooNew(
      `database ${location} was migrated by a newer burnrate (${error.keys.join(', ')})`,
      'DATABASE_URL at another database',
    );
  return new BurnrateError(
    'burnrate_db_unavailable',
    `cannot open database ${location}: ${(error as Error).message}`,
    'Check DATABASE_URL (postgres://user:password@host:5432/database), that the server is up and that the user may create tables.',
    1,
  );
}
