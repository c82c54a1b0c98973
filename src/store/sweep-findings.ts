import type { FindingChange } from '../domain/finding-change.js';
import type { SweepFinding, TrackedSweepFinding } from '../domain/sweep-finding.js';
import type { Session } from './session.js';
import { SqlTrackedFindings } from './tracked-findings.js';

export interface SweepFindingStore {
  listOpen(): Promise<TrackedSweepFinding[]>;
  get(id: string): Promise<TrackedSweepFinding | null>;
}

/** Runaway-sweep findings, read back from their JSON bodies. */
export class SqlSweepFindingStore extends SqlTrackedFindings<TrackedSweepFinding> implements SweepFindingStore {
  constructor(db: Session) {
    super(db, 'sweep');
  }
}

/** Applies a sweep check's changes inside the caller's (recordRun's) transaction. */
export async function applySweepFindingChange(tx: Session, change: FindingChange<SweepFinding>, now: Date): Promise<void> {
  const at = now.toISOString();
  for (const f of [...change.opened, ...change.stillOpen])
    await tx.run(
      `INSERT INTO check_findings (family, id, kind, team, subject, body, state, first_seen, last_seen, resolved_at)
       VALUES ('sweep', ?, ?, ?, ?, ?, 'open', ?, ?, NULL)
       ON CONFLICT (family, id) DO UPDATE SET body = excluded.body, state = 'open', last_seen = excluded.last_seen,
         first_seen = CASE WHEN check_findings.state = 'open' THEN check_findings.first_seen ELSE excluded.first_seen END, resolved_at = NULL`,
      [f.id, f.kind, f.team, f.sweep, JSON.stringify(f), at, at],
    );
  for (const id of change.resolved)
    await tx.run("UPDATE check_findings SET state = 'resolved', resolved_at = ? WHERE family = 'sweep' AND id = ? AND state = 'open'", [
      at,
      id,
    ]);
}
