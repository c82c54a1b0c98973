import type pg from 'pg';

/**
 * Queries on a Postgres pool or on one client inside a transaction: the sub-stores take either, so
 * the same function serves a single statement and a step of a larger transaction (an import, a
 * check run). Parameters are positional ($1, $2, …).
 */
export class PgSession {
  constructor(protected readonly client: pg.Pool | pg.PoolClient) {}

  async rows<R>(text: string, values: readonly unknown[] = []): Promise<R[]> {
    return (await this.client.query<R & pg.QueryResultRow>(text, values as unknown[])).rows;
  }

  async one<R>(text: string, values: readonly unknown[] = []): Promise<R | undefined> {
    return (await this.rows<R>(text, values))[0];
  }

  /** Rows as arrays of their columns. */
  async tuples<T extends unknown[]>(text: string, values: readonly unknown[] = []): Promise<T[]> {
    return (await this.client.query<T>({ text, values: values as unknown[], rowMode: 'array' })).rows;
  }

  /** Runs a statement; how many rows it changed. */
  async run(text: string, values: readonly unknown[] = []): Promise<number> {
    return (await this.client.query(text, values as unknown[])).rowCount ?? 0;
  }
}
