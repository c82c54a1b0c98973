import { openPostgresStore } from '../../src/store/postgres/open-postgres-store.js';
import type { Store } from '../../src/store/store.js';
import type { StoreUnderTest } from './stores.js';

/**
 * Runs `body` with a second store on the test's database, as another replica would open it, and
 * closes it after. A private in-memory SQLite database has no second process: the case is skipped.
 */
export async function withSecondReplica(
  store: StoreUnderTest,
  context: { skip: (note?: string) => void },
  body: (other: Store) => Promise<void>,
): Promise<void> {
  if (store.url === ':memory:') return context.skip('an in-memory SQLite database has one process');
  const other = openPostgresStore(store.url, { poolSize: 4 });
  try {
    await other.ready();
    await body(other);
  } finally {
    await other.close();
  }
}
