import { toTracked, type Tracked, type TrackedRow } from '../tracked-findings.js';
import type { PgDb } from './pg-db.js';

/** Findings stored as JSON bodies (tracked-findings.ts); `table` is one of ours, never user input. */
export class PgTrackedFindings<T extends Tracked> {
  constructor(
    private readonly db: PgDb,
    private readonly table: 'gpu_findings' | 'sweep_findings',
  ) {}

  async listOpen(): Promise<T[]> {
    return (await this.db.rows<TrackedRow>(`SELECT * FROM ${this.table} WHERE state = 'open' ORDER BY id COLLATE "C"`)).map((r) =>
      toTracked<T>(r),
    );
  }

  async get(id: string): Promise<T | null> {
    const row = await this.db.one<TrackedRow>(`SELECT * FROM ${this.table} WHERE id = $1`, [id]);
    return row ? toTracked<T>(row) : null;
  }
}
