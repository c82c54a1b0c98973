import type Database from 'better-sqlite3';
import type { LeaseClock } from '../outbox-table.js';
import type { Dialect, InsertColumn, Session } from '../session.js';
import { loopTurnIfDue } from '../../domain/loop-turns.js';

// Everything SQLite spells its own way, and the session over one better-sqlite3 connection.

/**
 * Money is added exactly, never as a running double (0.1 + 0.2 = 0.30000000000000004; a large
 * amount swallows tiny ones). SQLite has no decimal type: each row's amount is taken in integer
 * micro-units (64-bit, added exactly) and divided once; what a row holds below a micro-unit (nothing
 * for a bill's decimal amounts; a third of a cent for a Kubernetes node's cost split three ways) is
 * added beside it, so a split bill still adds up to its node's line.
 */
const sqliteMoneySum = (column: string): string =>
  `(sum(CAST(round(${column} * 1000000) AS INTEGER)) / 1000000.0 + round(sum(${column} - round(${column} * 1000000) / 1000000.0), 12))`;

export const SQLITE: Dialect = {
  name: 'sqlite',
  money: sqliteMoneySum,
  inList: (column) => `${column} IN (SELECT value FROM json_each(?))`,
  listTable: 'json_each(?)',
  list: (values) => JSON.stringify(values),
  bytes: (expression) => expression,
  order: (...columns) => columns.join(', '),
  jsonText: (column, field) => `json_extract(${column}, '$.${field}')`,
  greatest: 'max',
  rowId: 'rowid',
  insertionOrder: 'rowid',
  skipLocked: () => '',
  forUpdate: '',
  position: (text, needle) => `instr(${text}, ${needle})`,
  ddl: { identity: 'INTEGER PRIMARY KEY AUTOINCREMENT', insertionOrderColumn: '', withoutRowid: ' WITHOUT ROWID' },
};

/** How many rows an insert writes between two looks at the clock (domain/loop-turns.ts): a look is cheap, not free. */
const ROWS_BETWEEN_TURNS = 128;

/** better-sqlite3 binds numbers, text, blobs and null: booleans become 0/1, undefined null. */
const bindable = (value: unknown): unknown => (value === undefined ? null : typeof value === 'boolean' ? (value ? 1 : 0) : value);

/** Statements kept prepared, by their text: the sub-stores' statements are few and run often (chat commands, the budget check). */
class StatementCache {
  private readonly statements = new Map<string, Database.Statement>();
  constructor(private readonly db: Database.Database) {}

  get(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

/**
 * The session over one SQLite connection: statements run synchronously behind the async interface.
 * A transaction is the process's only writer while it lasts: statements from outside it wait until
 * it ends, so work of another caller never joins it by accident.
 */
class SqliteSession implements Session {
  readonly dialect = SQLITE;

  constructor(
    private readonly db: Database.Database,
    private readonly statements: StatementCache,
    private readonly turn: Turn,
    private readonly inTransaction: boolean,
  ) {}

  async rows<R>(sql: string, params: readonly unknown[] = []): Promise<R[]> {
    await this.waitToRead();
    return this.statements.get(sql).all(...params.map(bindable)) as R[];
  }

  async one<R>(sql: string, params: readonly unknown[] = []): Promise<R | undefined> {
    await this.waitToRead();
    return this.statements.get(sql).get(...params.map(bindable)) as R | undefined;
  }

  async tuples<T extends unknown[]>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    await this.waitToRead();
    const statement = this.statements.get(sql);
    try {
      return statement.raw(true).all(...params.map(bindable)) as T[];
    } finally {
      statement.raw(false);
    }
  }

  async run(sql: string, params: readonly unknown[] = []): Promise<number> {
    await this.wait();
    const statement = this.statements.get(sql);
    const bound = params.map(bindable);
    // A statement that returns rows (… RETURNING) runs through all(): run() refuses it.
    return statement.reader ? statement.all(...bound).length : statement.run(...bound).changes;
  }

  async insertRows(table: string, columns: readonly InsertColumn[], rows: Iterable<readonly unknown[]>): Promise<number> {
    await this.wait();
    // One prepared single-row statement run per row: better-sqlite3's fastest way in (an import writes tens of thousands).
    const insert = this.statements.get(
      `INSERT INTO ${table} (${columns.map((c) => c.name).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    );
    let count = 0;
    if (!this.inTransaction) {
      this.db.transaction(() => {
        for (const row of rows) {
          insert.run(...row);
          count++;
        }
      })();
      return count;
    }
    // Inside a transaction (an import's), thousands of rows give the event loop its turns as a run
    // of reads does: the transaction stays its caller's alone (the others wait for it), while acks
    // and probes are answered.
    for (const row of rows) {
      insert.run(...row);
      if (++count % ROWS_BETWEEN_TURNS === 0) await loopTurnIfDue();
    }
    return count;
  }

  async transaction<T>(work: (tx: Session) => Promise<T>): Promise<T> {
    if (this.inTransaction) return work(this);
    const release = await this.turn.take();
    try {
      this.statements.get('BEGIN IMMEDIATE').run();
      const tx = new SqliteSession(this.db, this.statements, this.turn, true);
      try {
        const result = await work(tx);
        this.statements.get('COMMIT').run();
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.statements.get('ROLLBACK').run();
        throw error;
      }
    } finally {
      release();
    }
  }

  async lock(): Promise<void> {
    // BEGIN IMMEDIATE took the database's write lock: every other writer, in any process, waits.
  }

  /** Outside a transaction, waits while another caller's transaction is open. */
  private async wait(): Promise<void> {
    if (!this.inTransaction && this.turn.held) await this.turn.idle();
  }

  /**
   * Before a read outside a transaction: gives the event loop its turn when a long run of calls has
   * kept it waiting (domain/loop-turns.ts), then waits as any call does.
   */
  private async waitToRead(): Promise<void> {
    if (!this.inTransaction) await loopTurnIfDue();
    await this.wait();
  }
}

/** Whose turn it is to hold the connection's one transaction; callers queue in order. */
class Turn {
  private tail: Promise<void> = Promise.resolve();
  held = false;

  async take(): Promise<() => void> {
    const before = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => (release = resolve));
    await before;
    this.held = true;
    return () => {
      this.held = false;
      release();
    };
  }

  /** Resolves once no transaction is open or queued. */
  async idle(): Promise<void> {
    while (this.held) await this.tail;
  }
}

/** The session over an open SQLite connection. */
export function sqliteSession(db: Database.Database): Session {
  return new SqliteSession(db, new StatementCache(db), new Turn(), false);
}

/**
 * Leases are judged on the clock of the one machine a SQLite file lives on: every process that
 * opens it reads that clock (the real one, never a replica's injected time such as BURNRATE_NOW);
 * a simulation passes its own.
 */
export const sqliteLeaseClock = (clock: () => Date = () => new Date()): LeaseClock => ({
  plus: (ms) => ({ sql: '?', params: [new Date(clock().getTime() + ms).toISOString()] }),
});
