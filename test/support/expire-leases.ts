import Database from 'better-sqlite3';

/**
 * Ends every outbox lease held in a SQLite file, as the database's clock shows it once a dead
 * delivery's lease has run out. Leases are judged on the database's clock, not on the clock a test
 * moves, so a test that means "later, after the lease" says so here instead of waiting it out.
 */
export function expireLeases(dbPath: string): number {
  const db = new Database(dbPath);
  try {
    db.pragma('busy_timeout = 5000');
    return db.prepare(`UPDATE outbox SET lease_until = '1970-01-01T00:00:00.000Z' WHERE status = 'sending'`).run().changes;
  } finally {
    db.close();
  }
}
