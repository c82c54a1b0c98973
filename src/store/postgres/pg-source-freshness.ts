import type { SourceFailure, SourceFreshness } from '../../domain/source-freshness.js';
import type { FreshnessStore } from '../source-freshness.js';
import { bytes } from './pg-collation.js';
import type { PgDb } from './pg-db.js';
import type { PgSession } from './pg-session.js';

export class PgFreshnessStore implements FreshnessStore {
  constructor(private readonly db: PgDb) {}

  async list(): Promise<SourceFreshness[]> {
    return this.db.rows<SourceFreshness>(
      `SELECT source, data_through AS "dataThrough", refreshed_at AS "refreshedAt" FROM source_freshness ORDER BY ${bytes('source')}`,
    );
  }

  async failures(): Promise<SourceFailure[]> {
    return this.db.rows<SourceFailure>(`SELECT source, failed_at AS "failedAt", error FROM source_failures ORDER BY ${bytes('source')}`);
  }

  async recordFailure(source: string, error: string, now: Date): Promise<void> {
    await this.db.run(
      `INSERT INTO source_failures (source, failed_at, error) VALUES ($1, $2, $3)
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
export async function writeFreshness(tx: PgSession, source: string, dataThrough: string | null, now: Date): Promise<void> {
  await tx.run(
    `INSERT INTO source_freshness AS f (source, data_through, refreshed_at) VALUES ($1, $2, $3)
     ON CONFLICT (source) DO UPDATE SET
       data_through = CASE WHEN excluded.data_through IS NULL THEN f.data_through
                           WHEN f.data_through IS NULL OR excluded.data_through > f.data_through THEN excluded.data_through
                           ELSE f.data_through END,
       refreshed_at = excluded.refreshed_at`,
    [source, dataThrough, now.toISOString()],
  );
  await tx.run('DELETE FROM source_failures WHERE source = $1', [source]);
}
