import type { FindingChange } from '../domain/finding-change.js';
import type { SweepFinding, TrackedSweepFinding } from '../domain/sweep-finding.js';
import type { Session } from './session.js';
import { applyTrackedChange, SqlTrackedFindings } from './tracked-findings.js';

export interface SweepFindingStore {
  listOpen(): Promise<TrackedSweepFinding[]>;
  get(id: string): Promise<TrackedSweepFinding | null>;
}

/** Runaway-sweep findings, read back from their JSON bodies. */
export class SqlSweepFindingStore extends SqlTrackedFindings<TrackedSweepFinding> implements SweepFindingStore {
  constructor(db: Session) {
    super(db, 'sweep');
  }
}

/** Applies a sweep check's changes inside the caller's (recordRun's) transaction. */
export const applySweepFindingChange = (tx: Session, change: FindingChange<SweepFinding>, now: Date): Promise<void> =>
  applyTrackedChange(tx, 'sweep', (f) => f.sweep, 'restarts', change, now);
