import type { TrackedGpuFinding } from '../domain/gpu-finding.js';

export interface GpuFindingStore {
  listOpen(): Promise<TrackedGpuFinding[]>;
  get(id: string): Promise<TrackedGpuFinding | null>;
}
