import type Database from 'better-sqlite3';
import { toTracked, type TrackedRow, type Tracked } from '../tracked-findings.js';

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
