import type { Finding, TrackedFinding } from '../domain/finding.js';
import type { FindingChange } from '../domain/finding-change.js';
import type { Session } from './session.js';
import { applyTrackedChange, SqlTrackedFindings } from './tracked-findings.js';

export interface FindingStore {
  /** Tracked findings of the given periods (open and resolved), to reconcile a new run against. */
  listForPeriods(periods: readonly string[]): Promise<TrackedFinding[]>;
  listOpen(): Promise<TrackedFinding[]>;
  get(id: string): Promise<TrackedFinding | null>;
}

/** Budget findings, their times kept as ISO text. */
export class SqlFindingStore extends SqlTrackedFindings<TrackedFinding> implements FindingStore {
  constructor(db: Session) {
    super(db, 'budget', (row) => ({
      ...(JSON.parse(row.body) as Finding),
      state: row.state,
      firstSeen: row.first_seen,
      lastSeen: row.last_seen,
      resolvedAt: row.resolved_at,
    }));
  }

  async listForPeriods(periods: readonly string[]): Promise<TrackedFinding[]> {
    const d = this.db.dialect;
    return periods.length === 0 ? [] : this.list(d.inList('subject'), [d.list(periods)]);
  }
}

/** Applies a budget check's changes inside the caller's (recordRun's) transaction: a finding it opens is 'new' until seen again. */
export const applyFindingChange = (tx: Session, change: FindingChange<Finding>, now: Date): Promise<void> =>
  applyTrackedChange(tx, 'budget', (f) => f.period, 'restarts', change, now, 'new');
