import type { FindingChange } from '../../domain/finding-change.js';
import type { SweepFinding, TrackedSweepFinding } from '../../domain/sweep-finding.js';
import type { SweepFindingStore } from '../sweep-findings.js';
import type { PgDb } from './pg-db.js';
import type { PgSession } from './pg-session.js';
import { PgTrackedFindings } from './pg-tracked-findings.js';

export class PgSweepFindingStore extends PgTrackedFindings<TrackedSweepFinding> implements SweepFindingStore {
  constructor(db: PgDb) {
    super(db, 'sweep_findings');
  }
}

/** Applies a sweep check's changes (applySweepFindingChange in sqlite/sweep-findings.ts) inside the caller's transaction. */
export async function applyPgSweepFindingChange(tx: PgSession, change: FindingChange<SweepFinding>, now: Date): Promise<void> {
  const at = now.toISOString();
  for (const f of [...change.opened, ...change.stillOpen])
    await tx.run(
      `INSERT INTO sweep_findings (id, team, sweep, body, state, first_seen, last_seen, resolved_at)
       VALUES ($1, $2, $3, $4, 'open', $5, $5, NULL)
       ON CONFLICT (id) DO UPDATE SET body = excluded.body, state = 'open', last_seen = excluded.last_seen,
         first_seen = CASE WHEN sweep_findings.state = 'open' THEN sweep_findings.first_seen ELSE excluded.first_seen END, resolved_at = NULL`,
      [f.id, f.team, f.sweep, JSON.stringify(f), at],
    );
  for (const id of change.resolved)
    await tx.run("UPDATE sweep_findings SET state = 'resolved', resolved_at = $1 WHERE id = $2 AND state = 'open'", [at, id]);
}
