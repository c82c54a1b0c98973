import type { TrackedSweepFinding } from '../domain/sweep-finding.js';

export interface SweepFindingStore {
  listOpen(): Promise<TrackedSweepFinding[]>;
  get(id: string): Promise<TrackedSweepFinding | null>;
}
