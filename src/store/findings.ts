import type { Finding, TrackedFinding } from '../domain/finding.js';
import type { Session } from './session.js';
import { SqlTrackedFindings } from './tracked-findings.js';

/** Budget findings, their times kept as ISO text. */
export class SqlFindingStore extends SqlTrackedFindings<TrackedFinding> {
  constructor(db: Session) {
    super(db, 'budget', (row) => ({
      ...(JSON.parse(row.body) as Finding),
      state: row.state,
      firstSeen: row.first_seen,
      lastSeen: row.last_seen,
      resolvedAt: row.resolved_at,
    }));
  }

  /** Tracked findings of the given periods (open and resolved), to reconcile a new run against. */
  async listForPeriods(periods: readonly string[]): Promise<TrackedFinding[]> {
    const d = this.db.dialect;
    return periods.length === 0 ? [] : this.list(d.inList('subject'), [d.list(periods)]);
  }
}
