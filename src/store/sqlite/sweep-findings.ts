import type Database from 'better-sqlite3';
import { SqliteTrackedFindings } from './tracked-findings.js';
import type { FindingChange } from '../../domain/finding-change.js';
import type { SweepFinding, TrackedSweepFinding } from '../../domain/sweep-finding.js';
import type { SweepFindingStore } from '../sweep-findings.js';

/** Runaway-sweep findings, read back from their JSON bodies. */
export class SqliteSweepFindingStore extends SqliteTrackedFindings<TrackedSweepFinding> implements SweepFindingStore {
  constructor(db: Database.Database) {
    super(db, 'sweep_findings');
  }
}

/** Applies a sweep check's changes; called inside the store's recordRun transaction. */
export function applySweepFindingChange(db: Database.Database, change: FindingChange<SweepFinding>, now: Date): void {
  const at = now.toISOString();
  const upsert = db.prepare(
    `INSERT INTO sweep_findings (id, team, sweep, body, state, first_seen, last_seen, resolved_at)
     VALUES (@id, @team, @sweep, @body, 'open', @at, @at, NULL)
     ON CONFLICT (id) DO UPDATE SET body = excluded.body, state = 'open', last_seen = excluded.last_seen,
       first_seen = CASE WHEN sweep_findings.state = 'open' THEN sweep_findings.first_seen ELSE excluded.first_seen END, resolved_at = NULL`,
  );
  for (const f of [...change.opened, ...change.stillOpen])
    upsert.run({ id: f.id, team: f.team, sweep: f.sweep, body: JSON.stringify(f), at });
  const resolve = db.prepare("UPDATE sweep_findings SET state = 'resolved', resolved_at = ? WHERE id = ? AND state = 'open'");
  for (const id of change.resolved) resolve.run(at, id);
}
