import type { IdleFinding } from '../checks/idle/idle-findings.js';

/** An idle or stalled GPU instance as the gpu check records it: the pure finding plus what people read. */
export interface GpuFinding extends IdleFinding {
  /** The instance's Name tag; null when it has none. */
  name: string | null;
  instanceType: string;
}

export interface TrackedGpuFinding extends GpuFinding {
  state: 'open' | 'resolved';
  firstSeen: Date;
  lastSeen: Date;
  resolvedAt: Date | null;
}

/** How people name an instance: its Name tag, else its id. */
export function instanceLabel(finding: Pick<GpuFinding, 'name' | 'instanceId'>): string {
  return finding.name ?? finding.instanceId;
}
