import type Database from 'better-sqlite3';
import type { FreshnessStore, SourceFreshness } from './store.js';

export class SqliteFreshnessStore implements FreshnessStore {
  private readonly listStatement: Database.Statement<[], SourceFreshness>;

  constructor(db: Database.Database) {
    // Prepared once: every spend and budget command reads it.
    this.listStatement = db.prepare<[], SourceFreshness>('SELECT source, data_through AS dataThrough, refreshed_at AS refreshedAt FROM source_freshness ORDER BY source');
  }

  async list(): Promise<SourceFreshness[]> {
    return this.listStatement.all();
  }
}

/** Records how far a source's data reaches. Runs inside the caller's transaction. */
export function writeFreshness(db: Database.Database, source: string, dataThrough: string | null, now: Date): void {
  db.prepare(
    `INSERT INTO source_freshness (source, data_through, refreshed_at) VALUES (?, ?, ?)
     ON CONFLICT (source) DO UPDATE SET
       data_through = CASE WHEN excluded.data_through IS NULL THEN data_through
                           WHEN data_through IS NULL OR excluded.data_through > data_through THEN excluded.data_through
                           ELSE data_through END,
       refreshed_at = excluded.refreshed_at`,
  ).run(source, dataThrough, now.toISOString());
}
