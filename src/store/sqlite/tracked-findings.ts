import type Database from 'better-sqlite3';

/** The columns every table of JSON findings shares: gpu_findings and sweep_findings. */
export interface TrackedRow {
  body: string;
  state: 'open' | 'resolved';
  first_seen: string;
  last_seen: string;
  resolved_at: string | null;
}

export interface Tracked {
  state: 'open' | 'resolved';
  firstSeen: Date;
  lastSeen: Date;
  resolvedAt: Date | null;
}

/** Reads findings stored as JSON bodies with their open/resolved state; `table` is one of ours, never user input. */
export class SqliteTrackedFindings<T extends Tracked> {
  private readonly getStatement: Database.Statement<[string], TrackedRow>;
  private readonly listOpenStatement: Database.Statement<[], TrackedRow>;

  constructor(db: Database.Database, table: 'gpu_findings' | 'sweep_findings') {
    this.getStatement = db.prepare<[string], TrackedRow>(`SELECT * FROM ${table} WHERE id = ?`);
    this.listOpenStatement = db.prepare<[], TrackedRow>(`SELECT * FROM ${table} WHERE state = 'open' ORDER BY id`);
  }

  async listOpen(): Promise<T[]> {
    return this.listOpenStatement.all().map((row) => toTracked<T>(row));
  }

  async get(id: string): Promise<T | null> {
    const row = this.getStatement.get(id);
    return row ? toTracked<T>(row) : null;
  }
}

export function toTracked<T extends Tracked>(row: TrackedRow): T {
  return {
    ...(JSON.parse(row.body) as Omit<T, keyof Tracked>),
    state: row.state,
    firstSeen: new Date(row.first_seen),
    lastSeen: new Date(row.last_seen),
    resolvedAt: row.resolved_at ? new Date(row.resolved_at) : null,
  } as T;
}
