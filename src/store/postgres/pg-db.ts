import pg from 'pg';
import { PgSession } from './pg-session.js';

// Postgres hands 64-bit integers (count(*), identity ids) and numerics back as strings, so they
// cannot lose precision; burnrate's counts and ids stay far below 2^53 and its amounts are
// double precision already, so numbers are what the sub-stores expect, as SQLite gives them.
const INT8 = 20;
const NUMERIC = 1700;
const types = {
  getTypeParser: (oid: number, format?: string) => {
    if (oid === INT8) return (value: string) => Number(value);
    if (oid === NUMERIC) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

/**
 * A pool of connections to one Postgres database, with transactions. Every query waits for the
 * database to be open (its migrations applied), so the store can be handed out at once and the
 * first query says what went wrong when Postgres cannot be reached.
 */
export class PgDb extends PgSession {
  private opened: Promise<void> = Promise.resolve();

  constructor(readonly pool: pg.Pool) {
    super(pool);
  }

  /** Queries wait for `preparing` (run on the pool directly, before the gate opens). */
  openWith(preparing: (db: PgDb) => Promise<void>): Promise<void> {
    const ungated = new PgDb(this.pool);
    this.opened = preparing(ungated);
    // Read by the first query, or by ready(); never an unhandled rejection on its own.
    this.opened.catch(() => {});
    return this.opened;
  }

  ready(): Promise<void> {
    return this.opened;
  }

  override async rows<R>(text: string, values: readonly unknown[] = []): Promise<R[]> {
    await this.opened;
    return super.rows<R>(text, values);
  }

  override async tuples<T extends unknown[]>(text: string, values: readonly unknown[] = []): Promise<T[]> {
    await this.opened;
    return super.tuples<T>(text, values);
  }

  override async run(text: string, values: readonly unknown[] = []): Promise<number> {
    await this.opened;
    return super.run(text, values);
  }

  static connect(url: string, options: { max?: number } = {}): PgDb {
    const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, types, application_name: 'burnrate' });
    // An idle connection the server dropped (a restart, a failover) emits an error on the pool:
    // without a listener that would end the process. The next query simply takes a new connection.
    pool.on('error', () => {});
    return new PgDb(pool);
  }

  /**
   * Runs `work` in one transaction: committed when it resolves, rolled back when it throws.
   * READ COMMITTED, as Postgres defaults to: the statements that must not race take row locks
   * (FOR UPDATE, SKIP LOCKED) or advisory locks of their own.
   */
  async transaction<T>(work: (tx: PgSession) => Promise<T>): Promise<T> {
    await this.opened;
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(new PgSession(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** A transaction-scoped advisory lock: held until the transaction ends, whoever else asks waits. */
export async function lockFor(tx: PgSession, name: string): Promise<void> {
  await tx.run('SELECT pg_advisory_xact_lock(hashtext($1))', [name]);
}

/** The URL without its password, for logs and messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
}
