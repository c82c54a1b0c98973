import type { Finding, TrackedFinding } from '../../domain/finding.js';
import type { FindingChange } from '../../domain/finding-change.js';
import { toTrackedFinding, type FindingRow, type FindingStore } from '../findings.js';
import type { PgDb } from './pg-db.js';
import type { PgSession } from './pg-session.js';

/** Budget findings (findings.ts); ids compare byte by byte, as SQLite's do. */
export class PgFindingStore implements FindingStore {
  constructor(private readonly db: PgDb) {}

  async listForPeriods(periods: readonly string[]): Promise<TrackedFinding[]> {
    if (periods.length === 0) return [];
    const rows = await this.db.rows<FindingRow>('SELECT * FROM findings WHERE period = ANY($1::text[]) ORDER BY id COLLATE "C"', [periods]);
    return rows.map(toTrackedFinding);
  }

  async get(id: string): Promise<TrackedFinding | null> {
    const row = await this.db.one<FindingRow>('SELECT * FROM findings WHERE id = $1', [id]);
    return row ? toTrackedFinding(row) : null;
  }

  async listOpen(): Promise<TrackedFinding[]> {
    return (await this.db.rows<FindingRow>('SELECT * FROM findings WHERE state != \'resolved\' ORDER BY id COLLATE "C"')).map(
      toTrackedFinding,
    );
  }
}

/** Applies a budget check's changes (applyFindingChange in sqlite/findings.ts) inside the caller's transaction. */
export async function applyPgFindingChange(tx: PgSession, change: FindingChange<Finding>, now: Date): Promise<void> {
  const at = now.toISOString();
  const write = (f: Finding, state: 'new' | 'open') =>
    tx.run(
      `INSERT INTO findings (id, kind, team, period, threshold, state, body, first_seen, last_seen, resolved_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, NULL)
       ON CONFLICT (id) DO UPDATE SET state = excluded.state, body = excluded.body, last_seen = excluded.last_seen,
         resolved_at = NULL,
         first_seen = CASE WHEN findings.state = 'resolved' THEN excluded.first_seen ELSE findings.first_seen END`,
      [f.id, f.kind, f.team, f.period, f.threshold, state, JSON.stringify(f), at],
    );
  for (const f of change.opened) await write(f, 'new');
  for (const f of change.stillOpen) await write(f, 'open');
  for (const id of change.resolved)
    await tx.run("UPDATE findings SET state = 'resolved', resolved_at = $1 WHERE id = $2 AND state != 'resolved'", [at, id]);
}
