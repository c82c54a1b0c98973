import type Database from 'better-sqlite3';
import { SqliteTrackedFindings } from './tracked-findings.js';
import type { FindingChange } from '../../domain/finding-change.js';
import type { GpuFinding, TrackedGpuFinding } from '../../domain/gpu-finding.js';
import type { GpuFindingStore } from '../gpu-findings.js';

/** Idle-GPU findings, read back from their JSON bodies. */
export class SqliteGpuFindingStore extends SqliteTrackedFindings<TrackedGpuFinding> implements GpuFindingStore {
  constructor(db: Database.Database) {
    super(db, 'gpu_findings');
  }
}

/** Applies an idle-GPU check's changes; called inside the store's recordRun transaction. */
export function applyGpuFindingChange(db: Database.Database, change: FindingChange<GpuFinding>, now: Date): void {
  const at = now.toISOString();
  const upsert = db.prepare(
    `INSERT INTO gpu_findings (id, kind, team, instance_id, body, state, first_seen, last_seen, resolved_at)
     VALUES (@id, @kind, @team, @instanceId, @body, 'open', @at, @at, NULL)
     ON CONFLICT (id) DO UPDATE SET body = excluded.body, state = 'open', last_seen = excluded.last_seen, resolved_at = NULL`,
  );
  for (const f of [...change.opened, ...change.stillOpen])
    upsert.run({ id: f.id, kind: f.kind, team: f.team, instanceId: f.instanceId, body: JSON.stringify(f), at });
  const resolve = db.prepare("UPDATE gpu_findings SET state = 'resolved', resolved_at = ? WHERE id = ? AND state = 'open'");
  for (const id of change.resolved) resolve.run(at, id);
}
