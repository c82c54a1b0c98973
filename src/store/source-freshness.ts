import type { SourceFailure, SourceFreshness } from '../domain/source-freshness.js';
import type { Session } from './session.js';

export class SqlFreshnessStore {
  constructor(private readonly db: Session) {}

  async list(): Promise<SourceFreshness[]> {
    return this.db.rows<SourceFreshness>(
      `SELECT source, data_through AS "dataThrough", refreshed_at AS "refreshedAt" FROM source_freshness ORDER BY ${this.db.dialect.bytes('source')}`,
    );
  }

  /** Sources whose last refresh failed (a later success clears it). */
  async failures(): Promise<SourceFailure[]> {
    return this.db.rows<SourceFailure>(
      `SELECT source, failed_at AS "failedAt", error FROM source_failures ORDER BY ${this.db.dialect.bytes('source')}`,
    );
  }

  async recordFailure(source: string, error: string, now: Date): Promise<void> {
    await this.db.run(
      `INSERT INTO source_failures (source, failed_at, error) VALUES (?, ?, ?)
       ON CONFLICT (source) DO UPDATE SET failed_at = excluded.failed_at, error = excluded.error`,
      [source, now.toISOString(), error],
    );
  }
}

/**
 * Records how far a source's data reaches (never back: a later refresh of older days keeps the
 * mark), and that its last refresh worked. One upsert, so concurrent refreshes cannot lose a mark.
 * Runs inside the caller's transaction.
 */
export async function writeFreshness(tx: Session, source: string, dataThrough: string | null, now: Date): Promise<void> {
  await tx.run(
    `INSERT INTO source_freshness AS f (source, data_through, refreshed_at) VALUES (?, ?, ?)
     ON CONFLICT (source) DO UPDATE SET
       data_through = CASE WHEN excluded.data_through IS NULL THEN f.data_through
                           WHEN f.data_through IS NULL OR excluded.data_through > f.data_through THEN excluded.data_through
                           ELSE f.data_through END,
       refreshed_at = excluded.refreshed_at`,
    [source, dataThrough, now.toISOString()],
  );
  await tx.run('DELETE FROM source_failures WHERE source = ?', [source]);
}
