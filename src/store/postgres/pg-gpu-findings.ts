import type { FindingChange } from '../../domain/finding-change.js';
import type { GpuFinding, TrackedGpuFinding } from '../../domain/gpu-finding.js';
import type { GpuFindingStore } from '../gpu-findings.js';
import type { PgDb } from './pg-db.js';
import type { PgSession } from './pg-session.js';
import { PgTrackedFindings } from './pg-tracked-findings.js';

export class PgGpuFindingStore extends PgTrackedFindings<TrackedGpuFinding> implements GpuFindingStore {
  constructor(db: PgDb) {
    super(db, 'gpu_findings');
  }
}

/** Applies an idle-GPU check's changes (applyGpuFindingChange in sqlite/gpu-findings.ts) inside the caller's transaction. */
export async function applyPgGpuFindingChange(tx: PgSession, change: FindingChange<GpuFinding>, now: Date): Promise<void> {
  const at = now.toISOString();
  for (const f of [...change.opened, ...change.stillOpen])
    await tx.run(
      `INSERT INTO gpu_findings (id, kind, team, instance_id, body, state, first_seen, last_seen, resolved_at)
       VALUES ($1, $2, $3, $4, $5, 'open', $6, $6, NULL)
       ON CONFLICT (id) DO UPDATE SET body = excluded.body, state = 'open', last_seen = excluded.last_seen, resolved_at = NULL`,
      [f.id, f.kind, f.team, f.instanceId, JSON.stringify(f), at],
    );
  for (const id of change.resolved)
    await tx.run("UPDATE gpu_findings SET state = 'resolved', resolved_at = $1 WHERE id = $2 AND state = 'open'", [at, id]);
}
