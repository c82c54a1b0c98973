import type Database from 'better-sqlite3';
import type { SourceFailure, SourceFreshness } from '../../domain/source-freshness.js';
import type { FreshnessStore } from '../source-freshness.js';

export class SqliteFreshnessStore implements FreshnessStore {
  private readonly listStatement: Database.Statement<[], SourceFreshness>;
  private readonly failuresStatement: Database.Statement<[], SourceFailure>;
  private readonly recordFailureStatement: Database.Statement<[string, string, string]>;

  constructor(db: Database.Database) {
    // Prepared once: every spend and budget command reads them.
    this.listStatement = db.prepare<[], SourceFreshness>(
      'SELECT source, data_through AS dataThrough, refreshed_at AS refreshedAt FROM source_freshness ORDER BY source',
    );
    this.failuresStatement = db.prepare<[], SourceFailure>(
      'SELECT source, failed_at AS failedAt, error FROM source_failures ORDER BY source',
    );
    this.recordFailureStatement = db.prepare(
      `INSERT INTO source_failures (source, failed_at, error) VALUES (?, ?, ?)
       ON CONFLICT (source) DO UPDATE SET failed_at = excluded.failed_at, error = excluded.error`,
    );
  }

  async list(): Promise<SourceFreshness[]> {
    return this.listStatement.all();
  }

  async failures(): Promise<SourceFailure[]> {
    return this.failuresStatement.all();
  }

  async recordFailure(source: string, error: string, now: Date): Promise<void> {
    this.recordFailureStatement.run(source, now.toISOString(), error);
  }
}

/** Records how far a source's data reaches, and that its last refresh worked. Runs inside the caller's transaction. */
export function writeFreshness(db: Database.Database, source: string, dataThrough: string | null, now: Date): void {
  db.prepare(
    `INSERT INTO source_freshness (source, data_through, refreshed_at) VALUES (?, ?, ?)
     ON CONFLICT (source) DO UPDATE SET
       data_through = CASE WHEN excluded.data_through IS NULL THEN data_through
                           WHEN data_through IS NULL OR excluded.data_through > data_through THEN excluded.data_through
                           ELSE data_through END,
       refreshed_at = excluded.refreshed_at`,
  ).run(source, dataThrough, now.toISOString());
  db.prepare('DELETE FROM source_failures WHERE source = ?').run(source);
}
