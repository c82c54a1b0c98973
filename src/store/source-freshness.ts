import type Database from 'better-sqlite3';
import type { FreshnessStore, SourceFreshness } from './store.js';

export class SqliteFreshnessStore implements FreshnessStore {
  constructor(private readonly db: Database.Database) {}

  async list(): Promise<SourceFreshness[]> {
    return this.db
      .prepare('SELECT source, data_through AS dataThrough, refreshed_at AS refreshedAt FROM source_freshness ORDER BY source')
      .all() as SourceFreshness[];
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
