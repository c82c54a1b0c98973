// Each table's SQL is written once, against this small interface; the two dialect files
// (sqlite/sqlite-dialect.ts, postgres/pg-dialect.ts) hold everything SQLite and Postgres spell differently. Statements use `?` placeholders, bound in
// order; the Postgres session numbers them ($1, $2, …). Column aliases in camelCase are quoted
// ("resourceId"): Postgres folds unquoted names to lower case.

/** A table's contract: its one implementation's public methods (each documented once, on the class). */
export type PublicOf<C> = { [K in keyof C]: C[K] };

/** A time column as read back (ISO text, or null) as a Date. */
export const dateOrNull = (iso: string | null): Date | null => (iso ? new Date(iso) : null);

/** A column of a bulk insert: its name and its Postgres type (arrays of it are unnested there). */
export interface InsertColumn {
  readonly name: string;
  readonly type: 'text' | 'float8' | 'bigint' | 'boolean';
}

/** What a table's SQL needs spelled for its database, besides standard SQL. */
export interface Dialect {
  readonly name: 'sqlite' | 'postgres';
  /** An exact sum of an amount of money (never a running double). */
  money(column: string): string;
  /** `column` is one of a list bound to one `?` as list(values): a fleet of ids passes any parameter limit. */
  inList(column: string): string;
  /** A table of one text column `value` holding a list bound to one `?` as list(values). */
  readonly listTable: string;
  /** The bound value of an inList() or listTable parameter. */
  list(values: readonly (string | number)[]): unknown;
  /** A text expression compared byte by byte, as SQLite compares text (Postgres may be set to a linguistic collation). */
  bytes(expression: string): string;
  /** ORDER BY terms, text ascending by bytes with NULLs first, as SQLite orders them. */
  order(...columns: string[]): string;
  /** A string field of a JSON text column, or null. */
  jsonText(column: string, field: string): string;
  /** The larger of two numbers (SQLite's two-argument max, Postgres's greatest). */
  readonly greatest: string;
  /** A column that orders a table's rows as they were inserted (SQLite's rowid; a Postgres identity column named seq). */
  readonly insertionOrder: string;
  /** The identity of a row of a table without a key, stable within one statement. */
  readonly rowId: string;
  /** Appended to a SELECT that claims rows of `alias` several replicas may claim at once (nothing on SQLite, whose writers take turns). */
  skipLocked(alias: string): string;
  /** Appended to a SELECT inside a transaction whose rows it will change (nothing on SQLite: its transaction holds the write lock). */
  readonly forUpdate: string;
  /** Where `needle` first occurs in `text` (1-based; 0 when it does not). */
  position(text: string, needle: string): string;
  /** How a schema spells what the two differ on (schema.ts). */
  readonly ddl: {
    /** A table's own numeric key, counting up. */
    readonly identity: string;
    /** The column `insertionOrder` names, with its comma ('' where the database keeps a rowid). */
    readonly insertionOrderColumn: string;
    /** After a table with a primary key that needs no rowid ('' where there is none to leave out). */
    readonly withoutRowid: string;
  };
}

export interface Session {
  readonly dialect: Dialect;
  rows<R>(sql: string, params?: readonly unknown[]): Promise<R[]>;
  one<R>(sql: string, params?: readonly unknown[]): Promise<R | undefined>;
  /** Rows as arrays of their columns: reads of many rows on a hot path skip building an object per row. */
  tuples<T extends unknown[]>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a statement; how many rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  /**
   * Inserts many rows into `table` (SQLite: one prepared statement per row; Postgres: unnested
   * arrays, a chunk per statement). Each row is read as it comes, so a producer may hand the same
   * array back refilled: an import of a month writes tens of thousands without one array each.
   * Values are bound as they are (text, numbers, null): the hot loop converts nothing.
   */
  insertRows(table: string, columns: readonly InsertColumn[], rows: Iterable<readonly unknown[]>): Promise<number>;
  /**
   * Runs `work` in one transaction: committed when it resolves, rolled back when it throws. On
   * SQLite the transaction holds the database's write lock from its start (BEGIN IMMEDIATE) and the
   * process's other statements wait for it; inside a transaction, transaction() joins it.
   */
  transaction<T>(work: (tx: Session) => Promise<T>): Promise<T>;
  /** Inside a transaction: waits for and holds `name` until it ends (Postgres: an advisory lock; SQLite's write lock covers it). */
  lock(name: string): Promise<void>;
}
