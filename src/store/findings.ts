import type { Finding, TrackedFinding } from '../domain/finding.js';
import type { FindingChange } from '../domain/finding-change.js';
import type { Session } from './session.js';

export interface FindingStore {
  /** Tracked findings of the given periods (open and resolved), to reconcile a new run against. */
  listForPeriods(periods: readonly string[]): Promise<TrackedFinding[]>;
  listOpen(): Promise<TrackedFinding[]>;
  get(id: string): Promise<TrackedFinding | null>;
}

interface FindingRow {
  body: string;
  state: TrackedFinding['state'];
  first_seen: string;
  last_seen: string;
  resolved_at: string | null;
}

function toTrackedFinding(row: FindingRow): TrackedFinding {
  return {
    ...(JSON.parse(row.body) as Finding),
    state: row.state,
    firstSeen: row.first_seen,
    lastSeen: row.last_seen,
    resolvedAt: row.resolved_at,
  };
}

/** Budget findings; ids compare byte by byte, as SQLite's do. */
export class SqlFindingStore implements FindingStore {
  constructor(private readonly db: Session) {}

  async listForPeriods(periods: readonly string[]): Promise<TrackedFinding[]> {
    if (periods.length === 0) return [];
    const d = this.db.dialect;
    const rows = await this.db.rows<FindingRow>(
      `SELECT * FROM check_findings WHERE family = 'budget' AND ${d.inList('subject')} ORDER BY ${d.bytes('id')}`,
      [d.list(periods)],
    );
    return rows.map(toTrackedFinding);
  }

  async get(id: string): Promise<TrackedFinding | null> {
    const row = await this.db.one<FindingRow>("SELECT * FROM check_findings WHERE family = 'budget' AND id = ?", [id]);
    return row ? toTrackedFinding(row) : null;
  }

  async listOpen(): Promise<TrackedFinding[]> {
    const rows = await this.db.rows<FindingRow>(
      `SELECT * FROM check_findings WHERE family = 'budget' AND state != 'resolved' ORDER BY ${this.db.dialect.bytes('id')}`,
    );
    return rows.map(toTrackedFinding);
  }
}

/** Applies a budget check's changes inside the caller's (recordRun's) transaction. */
export async function applyFindingChange(tx: Session, change: FindingChange<Finding>, now: Date): Promise<void> {
  const at = now.toISOString();
  const write = (f: Finding, state: 'new' | 'open') =>
    tx.run(
      `INSERT INTO check_findings (family, id, kind, team, subject, state, body, first_seen, last_seen, resolved_at)
       VALUES ('budget', ?, ?, ?, ?, ?, ?, ?, ?, NULL)
       ON CONFLICT (family, id) DO UPDATE SET state = excluded.state, body = excluded.body, last_seen = excluded.last_seen,
         resolved_at = NULL,
         first_seen = CASE WHEN check_findings.state = 'resolved' THEN excluded.first_seen ELSE check_findings.first_seen END`,
      [f.id, f.kind, f.team, f.period, state, JSON.stringify(f), at, at],
    );
  for (const f of change.opened) await write(f, 'new');
  for (const f of change.stillOpen) await write(f, 'open');
  for (const id of change.resolved)
    await tx.run(
      "UPDATE check_findings SET state = 'resolved', resolved_at = ? WHERE family = 'budget' AND id = ? AND state != 'resolved'",
      [at, id],
    );
}
