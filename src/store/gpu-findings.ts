import type { FindingChange } from '../domain/finding-change.js';
import type { GpuFinding, TrackedGpuFinding } from '../domain/gpu-finding.js';
import type { Session } from './session.js';
import { applyTrackedChange, SqlTrackedFindings } from './tracked-findings.js';

export interface GpuFindingStore {
  listOpen(): Promise<TrackedGpuFinding[]>;
  get(id: string): Promise<TrackedGpuFinding | null>;
}

/** Idle-GPU findings, read back from their JSON bodies. */
export class SqlGpuFindingStore extends SqlTrackedFindings<TrackedGpuFinding> implements GpuFindingStore {
  constructor(db: Session) {
    super(db, 'gpu');
  }
}

/** Applies an idle-GPU check's changes inside the caller's (recordRun's) transaction (an instance idle again keeps when it was first seen). */
export const applyGpuFindingChange = (tx: Session, change: FindingChange<GpuFinding>, now: Date): Promise<void> =>
  applyTrackedChange(tx, 'gpu', (f) => f.instanceId, 'kept', change, now);
