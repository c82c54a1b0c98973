import type { PgDb } from './pg-db.js';
import type { PgSession } from './pg-session.js';
import type { LeaseClock } from '../outbox-table.js';
import type { Dialect, InsertColumn, Session } from '../session.js';

// Everything Postgres spells its own way, and the session over a pool (or one transaction's client).

/** A text expression compared byte by byte, as SQLite compares it: a database may sort linguistically. */
const bytes = (expression: string): string => `${expression} COLLATE "C"`;

export const POSTGRES: Dialect = {
  name: 'postgres',
  // Money added exactly: each amount as NUMERIC (the double's 15 significant digits), summed as such.
  money: (column) => `sum(${column}::numeric)`,
  inList: (column) => `${column} = ANY(?)`,
  listTable: 'unnest(?::text[]) AS list(value)',
  list: (values) => values,
  bytes,
  // SQLite sorts NULLs first; Postgres last unless told.
  order: (...columns) => columns.map((c) => `${bytes(c)} NULLS FIRST`).join(', '),
  jsonText: (column, field) => `(${column}::jsonb ->> '${field}')`,
  greatest: 'greatest',
  rowId: 'ctid',
  insertionOrder: 'seq',
  forUpdate: 'FOR UPDATE',
  skipLocked: (alias) => `FOR UPDATE OF ${alias} SKIP LOCKED`,
  position: (text, needle) => `strpos(${text}, ${needle})`,
};

const numbered = new Map<string, string>();

/** `?` placeholders numbered $1, $2, … (outside quoted text), remembered per statement. */
export function numberPlaceholders(sql: string): string {
  let text = numbered.get(sql);
  if (text === undefined) {
    let n = 0;
    text = sql.replace(/'(?:[^']|'')*'|"[^"]*"|\?/g, (token) => (token === '?' ? `$${++n}` : token));
    numbered.set(sql, text);
  }
  return text;
}

/** Rows sent per bulk insert statement: a month of a large bill is a few hundred thousand. */
const INSERT_CHUNK = 5000;

class PostgresSession implements Session {
  readonly dialect = POSTGRES;

  constructor(
    private readonly db: PgDb,
    private readonly client: PgSession,
    private readonly inTransaction: boolean,
  ) {}

  rows<R>(sql: string, params: readonly unknown[] = []): Promise<R[]> {
    return this.client.rows<R>(numberPlaceholders(sql), params);
  }

  one<R>(sql: string, params: readonly unknown[] = []): Promise<R | undefined> {
    return this.client.one<R>(numberPlaceholders(sql), params);
  }

  tuples<T extends unknown[]>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return this.client.tuples<T>(numberPlaceholders(sql), params);
  }

  run(sql: string, params: readonly unknown[] = []): Promise<number> {
    return this.client.run(numberPlaceholders(sql), params);
  }

  async insertRows(table: string, columns: readonly InsertColumn[], rows: Iterable<readonly unknown[]>): Promise<number> {
    // One array per column, unnested into rows: a chunk is one statement of a fixed number of parameters.
    const sql = `INSERT INTO ${table} (${columns.map((c) => c.name).join(', ')})
      SELECT * FROM unnest(${columns.map((c, i) => `$${i + 1}::${c.type}[]`).join(', ')})`;
    let chunk: unknown[][] = columns.map(() => []);
    let count = 0;
    for (const row of rows) {
      columns.forEach((_, i) => chunk[i]!.push(row[i] ?? null));
      if (++count % INSERT_CHUNK === 0) {
        await this.client.run(sql, chunk);
        chunk = columns.map(() => []);
      }
    }
    if (count % INSERT_CHUNK !== 0) await this.client.run(sql, chunk);
    return count;
  }

  transaction<T>(work: (tx: Session) => Promise<T>): Promise<T> {
    if (this.inTransaction) return work(this);
    return this.db.transaction((client) => work(new PostgresSession(this.db, client, true)));
  }

  async lock(name: string): Promise<void> {
    await this.client.run('SELECT pg_advisory_xact_lock(hashtext($1))', [name]);
  }
}

/** The session over a Postgres pool (its queries wait for the migrations, as PgDb's do). */
export function postgresSession(db: PgDb): Session {
  return new PostgresSession(db, db, false);
}

/**
 * Leases are judged on the database's time, as the ISO text the outbox's time columns hold.
 * clock_timestamp(), not now(): a lease must not start at a transaction's beginning. Every
 * replica reads this one clock, so one whose own clock runs ahead cannot take over a lease.
 */
export const POSTGRES_LEASE_CLOCK: LeaseClock = {
  plus: (ms) => ({
    sql: `to_char((clock_timestamp() + (?)::double precision * interval '1 millisecond') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    params: [ms],
  }),
};
