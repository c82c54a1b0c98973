import type Database from 'better-sqlite3';
import type { TrackedGpuFinding } from '../domain/gpu-finding.js';
import type { GpuFindingChange, GpuFindingStore } from './store.js';

interface GpuFindingRow {
  body: string;
  state: TrackedGpuFinding['state'];
  first_seen: string;
  last_seen: string;
  resolved_at: string | null;
}

export class SqliteGpuFindingStore implements GpuFindingStore {
  private readonly getStatement: Database.Statement<[string], GpuFindingRow>;
  private readonly listOpenStatement: Database.Statement<[], GpuFindingRow>;

  constructor(db: Database.Database) {
    this.getStatement = db.prepare<[string], GpuFindingRow>('SELECT * FROM gpu_findings WHERE id = ?');
    this.listOpenStatement = db.prepare<[], GpuFindingRow>("SELECT * FROM gpu_findings WHERE state = 'open' ORDER BY id");
  }

  async listOpen(): Promise<TrackedGpuFinding[]> {
    return this.listOpenStatement.all().map(toTracked);
  }

  async get(id: string): Promise<TrackedGpuFinding | null> {
    const row = this.getStatement.get(id);
    return row ? toTracked(row) : null;
  }
}

/** Applies a run's changes; called inside the store's recordGpuCheck transaction. */
export function applyGpuFindingChange(db: Database.Database, change: GpuFindingChange, now: Date): void {
  const at = now.toISOString();
  const upsert = db.prepare(
    `INSERT INTO gpu_findings (id, kind, team, instance_id, body, state, first_seen, last_seen, resolved_at)
     VALUES (@id, @kind, @team, @instanceId, @body, 'open', @at, @at, NULL)
     ON CONFLICT (id) DO UPDATE SET body = excluded.body, state = 'open', last_seen = excluded.last_seen, resolved_at = NULL`,
  );
  for (const f of [...change.opened, ...change.stillOpen]) upsert.run({ id: f.id, kind: f.kind, team: f.team, instanceId: f.instanceId, body: JSON.stringify(f), at });
  const resolve = db.prepare("UPDATE gpu_findings SET state = 'resolved', resolved_at = ? WHERE id = ? AND state = 'open'");
  for (const id of change.resolved) resolve.run(at, id);
}

function toTracked(row: GpuFindingRow): TrackedGpuFinding {
  return {
    ...(JSON.parse(row.body) as Omit<TrackedGpuFinding, 'state' | 'firstSeen' | 'lastSeen' | 'resolvedAt'>),
    state: row.state,
    firstSeen: new Date(row.first_seen),
    lastSeen: new Date(row.last_seen),
    resolvedAt: row.resolved_at ? new Date(row.resolved_at) : null,
  };
}
