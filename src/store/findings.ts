import type { Finding, TrackedFinding } from '../domain/finding.js';

export interface FindingStore {
  /** Tracked findings of the given periods (open and resolved), to reconcile a new run against. */
  listForPeriods(periods: readonly string[]): Promise<TrackedFinding[]>;
  listOpen(): Promise<TrackedFinding[]>;
  get(id: string): Promise<TrackedFinding | null>;
}

export interface FindingRow {
  body: string;
  state: TrackedFinding['state'];
  first_seen: string;
  last_seen: string;
  resolved_at: string | null;
}

export function toTrackedFinding(row: FindingRow): TrackedFinding {
  return {
    ...(JSON.parse(row.body) as Finding),
    state: row.state,
    firstSeen: row.first_seen,
    lastSeen: row.last_seen,
    resolvedAt: row.resolved_at,
  };
}
