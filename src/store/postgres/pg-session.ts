import pg from 'pg';
import type { InsertColumn, Session } from '../session.js';
import { numberPlaceholders, POSTGRES } from './pg-dialect.js';

// Postgres hands 64-bit integers (count(*), identity ids) and numerics back as strings, so they
// cannot lose precision; burnrate's counts and ids stay far below 2^53 and its amounts are
// double precision already, so numbers are what the sub-stores expect, as SQLite gives them.
const INT8 = 20;
const NUMERIC = 1700;
const types = {
  getTypeParser: (oid: number, format?: string) =>
    oid === INT8 || oid === NUMERIC ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text'),
};

/** A pool of connections to one Postgres database. */
export function connectPool(url: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, types, application_name: 'burnrate' });
  // An idle connection the server dropped (a restart, a failover) emits an error on the pool:
  // without a listener that would end the process. The next query simply takes a new connection.
  pool.on('error', () => {});
  return pool;
}

/** Rows sent per bulk insert statement: a month of a large bill is a few hundred thousand. */
const INSERT_CHUNK = 5000;

/**
 * The session over a pool, or over one client inside a transaction. Every statement waits for
 * `opened` (the migrations), so the store can be handed out at once and the first query says what
 * went wrong when Postgres cannot be reached.
 */
export class PostgresSession implements Session {
  readonly dialect = POSTGRES;

  constructor(
    private readonly client: pg.Pool | pg.PoolClient,
    private readonly opened: Promise<void> = Promise.resolve(),
    private readonly inTransaction = false,
  ) {}

  async rows<R>(sql: string, params: readonly unknown[] = []): Promise<R[]> {
    await this.opened;
    return (await this.client.query<R & pg.QueryResultRow>(numberPlaceholders(sql), params as unknown[])).rows;
  }

  async one<R>(sql: string, params: readonly unknown[] = []): Promise<R | undefined> {
    return (await this.rows<R>(sql, params))[0];
  }

  async tuples<T extends unknown[]>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    await this.opened;
    return (await this.client.query<T>({ text: numberPlaceholders(sql), values: params as unknown[], rowMode: 'array' })).rows;
  }

  async run(sql: string, params: readonly unknown[] = []): Promise<number> {
    await this.opened;
    return (await this.client.query(numberPlaceholders(sql), params as unknown[])).rowCount ?? 0;
  }

  async insertRows(table: string, columns: readonly InsertColumn[], rows: Iterable<readonly unknown[]>): Promise<number> {
    // One array per column, unnested into rows: a chunk is one statement of a fixed number of parameters.
    const sql = `INSERT INTO ${table} (${columns.map((c) => c.name).join(', ')})
      SELECT * FROM unnest(${columns.map((c) => `?::${c.type}[]`).join(', ')})`;
    let chunk: unknown[][] = columns.map(() => []);
    let count = 0;
    for (const row of rows) {
      columns.forEach((_, i) => chunk[i]!.push(row[i] ?? null));
      if (++count % INSERT_CHUNK === 0) {
        await this.run(sql, chunk);
        chunk = columns.map(() => []);
      }
    }
    if (count % INSERT_CHUNK !== 0) await this.run(sql, chunk);
    return count;
  }

  /**
   * Runs `work` in one transaction on one client: committed when it resolves, rolled back when it
   * throws. READ COMMITTED, as Postgres defaults to: the statements that must not race take row
   * locks (FOR UPDATE, SKIP LOCKED) or advisory locks (lock()).
   */
  async transaction<T>(work: (tx: Session) => Promise<T>): Promise<T> {
    if (this.inTransaction) return work(this);
    await this.opened;
    const client = await (this.client as pg.Pool).connect();
    try {
      await client.query('BEGIN');
      const result = await work(new PostgresSession(client, Promise.resolve(), true));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  /** A transaction-scoped advisory lock: held until the transaction ends, whoever else asks waits. */
  async lock(name: string): Promise<void> {
    await this.run('SELECT pg_advisory_xact_lock(hashtext(?))', [name]);
  }
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
