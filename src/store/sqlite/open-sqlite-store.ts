import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { SQLITE, sqliteLeaseClock, sqliteSession } from './sqlite-dialect.js';
import { BASELINE_USER_VERSION, bringToBaseline } from './sqlite-upgrade.js';
import { BurnrateError } from '../../domain/errors.js';
import type { FxRates } from '../../domain/fx.js';
import { assembleStore } from '../assemble-store.js';
import { soleLeadership } from '../leadership.js';
import { CREATE_MIGRATIONS_TABLE, databaseTooNew, MIGRATIONS, refuseUnknown, sqlOf, UnknownMigrationError } from '../migrations.js';
import type { Store } from '../store.js';

export const DEFAULT_DB_PATH = './data/burnrate.db';

const TO_ANOTHER_FILE = 'BURNRATE_DB at another file';

/**
 * Opens (and migrates) the embedded SQLite store. `:memory:` gives a private database for tests.
 * `databaseClock` is the clock outbox leases are judged by: the machine's (default), or a
 * simulation's; `fx` is burnrate.yml's exchange rates (assembleStore).
 */
export function openStore(path: string, options: { databaseClock?: () => Date; fx?: FxRates } = {}): Store {
  let db: Database.Database;
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    db = new Database(path);
    // The first statements read the file: one that is not a SQLite database fails here, not later.
    useWriteAheadLog(db);
  } catch (error) {
    const notADatabase = /not a database/i.test((error as Error).message);
    throw new BurnrateError(
      'burnrate_db_unavailable',
      `cannot open database ${path}: ${(error as Error).message}`,
      notADatabase
        ? "BURNRATE_DB (or --db) names a file that is not a burnrate database: point it at a new file or at burnrate's own."
        : 'Check BURNRATE_DB or --db and that the folder is writable.',
      1,
    );
  }
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  try {
    migrate(db);
  } catch (error) {
    if (!(error instanceof UnknownMigrationError)) throw error;
    throw databaseTooNew(`database ${path} was migrated by a newer burnrate (${error.keys.join(', ')})`, TO_ANOTHER_FILE);
  }
  return assembleStore(
    sqliteSession(db),
    sqliteLeaseClock(options.databaseClock),
    {
      location: path,
      shared: false,
      ready: async () => {},
      competeForLeadership: (options) => soleLeadership(options?.onChange),
      close: async () => {
        if (db.open) db.close();
      },
    },
    options.fx,
  );
}

/**
 * Brings the schema up to date with the one migration list (migrations.ts), recorded by key in
 * burnrate_migrations as on Postgres; a file from before the list (its PRAGMA user_version below
 * the baseline's) is brought to the baseline first (sqlite-upgrade.ts). Several processes may
 * open a fresh file at the same moment (serve and its answer workers, two replicas starting): the
 * pending migrations run under SQLite's write lock (BEGIN IMMEDIATE), and what is applied is read
 * again once it is held, so the second process finds the work done. An up-to-date file takes no lock.
 */
function migrate(db: Database.Database): void {
  const version = () => checkedVersion(db.pragma('user_version', { simple: true }) as number);
  const applied = () => {
    const recorded = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'burnrate_migrations'").get()
      ? db.prepare<[], string>('SELECT key FROM burnrate_migrations').pluck().all()
      : [];
    refuseUnknown(recorded);
    return new Set(recorded);
  };
  const pending = () => MIGRATIONS.filter((m) => !applied().has(m.key));
  if (pending().length === 0 && version() === BASELINE_USER_VERSION) return;
  db.transaction(() => {
    db.exec(CREATE_MIGRATIONS_TABLE);
    for (const migration of pending()) {
      if (migration !== MIGRATIONS[0]) db.exec(sqlOf(migration, SQLITE));
      else if (version() < BASELINE_USER_VERSION) {
        bringToBaseline(db, sqlOf(migration, SQLITE));
        db.pragma(`user_version = ${BASELINE_USER_VERSION}`);
      }
      db.prepare('INSERT INTO burnrate_migrations (key, applied_at) VALUES (?, ?)').run(migration.key, new Date().toISOString());
    }
  }).immediate();
}

function checkedVersion(current: number): number {
  if (current > BASELINE_USER_VERSION) {
    throw databaseTooNew(`database schema version ${current} is newer than this burnrate (${BASELINE_USER_VERSION})`, TO_ANOTHER_FILE);
  }
  return current;
}

/**
 * Switches a database to write-ahead logging. Processes opening a new file together (replicas,
 * answer workers) race for the lock the switch takes, and SQLite answers "database is locked"
 * without waiting for it: try again for a few seconds, as the busy timeout would.
 */
function useWriteAheadLog(db: Database.Database): void {
  const deadline = Date.now() + 5_000;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if (!/locked|busy/i.test((error as Error).message) || Date.now() > deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
}
