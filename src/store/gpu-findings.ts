import type { FindingChange } from '../domain/finding-change.js';
import type { GpuFinding, TrackedGpuFinding } from '../domain/gpu-finding.js';
import type { Session } from './session.js';
import { SqlTrackedFindings } from './tracked-findings.js';

export interface GpuFindingStore {
  listOpen(): Promise<TrackedGpuFinding[]>;
  get(id: string): Promise<TrackedGpuFinding | null>;
}

/** Idle-GPU findings, read back from their JSON bodies. */
export class SqlGpuFindingStore extends SqlTrackedFindings<TrackedGpuFinding> implements GpuFindingStore {
  constructor(db: Session) {
    super(db, 'gpu');
  }
}

/** Applies an idle-GPU check's changes inside the caller's (recordRun's) transaction. */
export async function applyGpuFindingChange(tx: Session, change: FindingChange<GpuFinding>, now: Date): Promise<void> {
  const at = now.toISOString();
  for (const f of [...change.opened, ...change.stillOpen])
    await tx.run(
      `INSERT INTO check_findings (family, id, kind, team, subject, body, state, first_seen, last_seen, resolved_at)
       VALUES ('gpu', ?, ?, ?, ?, ?, 'open', ?, ?, NULL)
       ON CONFLICT (family, id) DO UPDATE SET body = excluded.body, state = 'open', last_seen = excluded.last_seen, resolved_at = NULL`,
      [f.id, f.kind, f.team, f.instanceId, JSON.stringify(f), at, at],
    );
  for (const id of change.resolved)
    await tx.run("UPDATE check_findings SET state = 'resolved', resolved_at = ? WHERE family = 'gpu' AND id = ? AND state = 'open'", [
      at,
      id,
    ]);
}
