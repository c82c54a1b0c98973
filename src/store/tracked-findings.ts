import type { FindingChange } from '../domain/finding-change.js';
import { dateOrNull, type Session } from './session.js';

/** The columns of the one findings table (check_findings) a check's findings are read back from. */
export interface TrackedRow {
  body: string;
  state: 'new' | 'open' | 'resolved';
  first_seen: string;
  last_seen: string;
  resolved_at: string | null;
}

export interface Tracked {
  state: 'open' | 'resolved';
  firstSeen: Date;
  lastSeen: Date;
  resolvedAt: Date | null;
}

/** A finding as its body and its state with Dates (the budget check's keep ISO text: findings.ts). */
function toTracked<T>(row: TrackedRow): T {
  return {
    ...(JSON.parse(row.body) as object),
    state: row.state,
    firstSeen: new Date(row.first_seen),
    lastSeen: new Date(row.last_seen),
    resolvedAt: dateOrNull(row.resolved_at),
  } as T;
}

/** A check's findings as it reads them back: the open ones, and one by id. */
/** Reads one check's findings (JSON bodies with their state) from the one findings table, ids in byte order. */
export class SqlTrackedFindings<T> {
  constructor(
    protected readonly db: Session,
    private readonly family: string,
    private readonly fromRow: (row: TrackedRow) => T = toTracked,
  ) {}

  /** This family's rows matching `condition` (SQL over check_findings' columns), by id. */
  protected async list(condition: string, params: readonly unknown[]): Promise<T[]> {
    const rows = await this.db.rows<TrackedRow>(
      `SELECT * FROM check_findings WHERE family = ? AND ${condition} ORDER BY ${this.db.dialect.bytes('id')}`,
      [this.family, ...params],
    );
    return rows.map(this.fromRow);
  }

  listOpen(): Promise<T[]> {
    return this.list("state != 'resolved'", []);
  }

  async get(id: string): Promise<T | null> {
    const row = await this.db.one<TrackedRow>('SELECT * FROM check_findings WHERE family = ? AND id = ?', [this.family, id]);
    return row ? this.fromRow(row) : null;
  }
}

/** How a check's findings take a run's changes. */
export interface TrackedRules<F> {
  family: string;
  /** What a finding is about (a budget's period, an instance, a sweep, an anomaly's start). */
  subjectOf: (finding: F) => string;
  /** Whether one that had been resolved starts again from now ('restarts') or keeps when it was first seen ('kept'). */
  firstSeen: 'kept' | 'restarts';
  /** The state of one opened by this run ('open' unless said). */
  openedAs?: 'new' | 'open';
  /** What a finding seen again keeps of the body stored before (an answer given between runs). */
  keep?: (stored: F, seen: F) => F;
  /** Whether a resolved finding was last seen when it resolved (else: at the last run that found it). */
  seenUntilResolved?: boolean;
}

/** Applies a check's changes inside the caller's (recordRun's) transaction: a finding seen again is open with its new body. */
export async function applyTrackedChange<F extends { id: string; kind: string; team: string | null }>(
  tx: Session,
  rules: TrackedRules<F>,
  change: FindingChange<F>,
  now: Date,
): Promise<void> {
  const { family, keep } = rules;
  const at = now.toISOString();
  const restart =
    rules.firstSeen === 'restarts'
      ? ", first_seen = CASE WHEN check_findings.state = 'resolved' THEN excluded.first_seen ELSE check_findings.first_seen END"
      : '';
  const write = async (f: F, state: 'new' | 'open') => {
    const stored = keep && (await tx.one<{ body: string }>('SELECT body FROM check_findings WHERE family = ? AND id = ?', [family, f.id]));
    const body = keep && stored ? keep(JSON.parse(stored.body) as F, f) : f;
    await tx.run(
      `INSERT INTO check_findings (family, id, kind, team, subject, body, state, first_seen, last_seen, resolved_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)
       ON CONFLICT (family, id) DO UPDATE SET body = excluded.body, state = excluded.state, last_seen = excluded.last_seen,
         resolved_at = NULL${restart}`,
      [family, f.id, f.kind, f.team, rules.subjectOf(f), JSON.stringify(body), state, at, at],
    );
  };
  for (const f of change.opened) await write(f, rules.openedAs ?? 'open');
  for (const f of change.stillOpen) await write(f, 'open');
  const seen = rules.seenUntilResolved ? ', last_seen = ?' : '';
  for (const id of change.resolved)
    await tx.run(
      `UPDATE check_findings SET state = 'resolved', resolved_at = ?${seen} WHERE family = ? AND id = ? AND state != 'resolved'`,
      [at, ...(seen ? [at] : []), family, id],
    );
}
