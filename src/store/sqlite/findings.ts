import type Database from 'better-sqlite3';
import type { Finding, TrackedFinding } from '../../domain/finding.js';
import type { FindingChange } from '../../domain/finding-change.js';
import { toTrackedFinding, type FindingStore, type FindingRow } from '../findings.js';

export class SqliteFindingStore implements FindingStore {
  private readonly getStatement: Database.Statement<[string], FindingRow>;
  private readonly listOpenStatement: Database.Statement<[], FindingRow>;

  constructor(private readonly db: Database.Database) {
    // Prepared once: every budget command lists the open findings, and buttons look one up.
    this.getStatement = db.prepare<[string], FindingRow>('SELECT * FROM findings WHERE id = ?');
    this.listOpenStatement = db.prepare<[], FindingRow>("SELECT * FROM findings WHERE state != 'resolved' ORDER BY id");
  }

  async listForPeriods(periods: readonly string[]): Promise<TrackedFinding[]> {
    if (periods.length === 0) return [];
    const rows = this.db
      .prepare(`SELECT * FROM findings WHERE period IN (${periods.map(() => '?').join(',')}) ORDER BY id`)
      .all(...periods) as FindingRow[];
    return rows.map(toTrackedFinding);
  }

  async get(id: string): Promise<TrackedFinding | null> {
    const row = this.getStatement.get(id);
    return row ? toTrackedFinding(row) : null;
  }

  async listOpen(): Promise<TrackedFinding[]> {
    return this.listOpenStatement.all().map(toTrackedFinding);
  }
}

/** Applies a budget check's changes; called inside the store's recordRun transaction. */
export function applyFindingChange(db: Database.Database, change: FindingChange<Finding>, now: Date): void {
  const at = now.toISOString();
  const upsert = db.prepare(
    `INSERT INTO findings (id, kind, team, period, threshold, state, body, first_seen, last_seen, resolved_at)
     VALUES (@id, @kind, @team, @period, @threshold, @state, @body, @at, @at, NULL)
     ON CONFLICT (id) DO UPDATE SET state = excluded.state, body = excluded.body, last_seen = excluded.last_seen,
       resolved_at = NULL,
       first_seen = CASE WHEN findings.state = 'resolved' THEN excluded.first_seen ELSE findings.first_seen END`,
  );
  const resolve = db.prepare("UPDATE findings SET state = 'resolved', resolved_at = ? WHERE id = ? AND state != 'resolved'");
  const write = (finding: Finding, state: 'new' | 'open') => upsert.run({ ...pick(finding), state, body: JSON.stringify(finding), at });
  change.opened.forEach((f) => write(f, 'new'));
  change.stillOpen.forEach((f) => write(f, 'open'));
  change.resolved.forEach((id) => resolve.run(at, id));
}

function pick(f: Finding) {
  return { id: f.id, kind: f.kind, team: f.team, period: f.period, threshold: f.threshold };
}
