import type { SourceFailure, SourceFreshness } from '../domain/source-freshness.js';

export interface FreshnessStore {
  list(): Promise<SourceFreshness[]>;
  /** Sources whose last refresh failed (a later success clears it). */
  failures(): Promise<SourceFailure[]>;
  recordFailure(source: string, error: string, now: Date): Promise<void>;
}
