/** A sweep over one of its team's caps (config teams[].sweepCaps) within the sweep window. */
export interface SweepFinding {
  /** `sweep.spend:<team>:<sweep>` or `sweep.gpu-hours:<team>:<sweep>`: one per cap, so each crossing alerts once. */
  id: string;
  kind: 'sweep.spend' | 'sweep.gpu-hours';
  team: string;
  /** The sweep tag's value. */
  sweep: string;
  /** The cap crossed, and the sweep's figure it is compared with (USD or GPU-hours). */
  cap: number;
  value: number;
  spend: number;
  gpuHours: number;
  windowHours: number;
  /** What the sweep's instances that run now cost per hour: what stopping them saves. */
  perHour: number;
  instances: SweepInstance[];
}

export interface SweepInstance {
  instanceId: string;
  name: string | null;
  instanceType: string;
  gpuCount: number;
  hourlyPrice: number;
  protected: boolean;
  /** Reported GPU samples at the end of the window: it runs now. */
  running: boolean;
  runningHours: number;
  spend: number;
  gpuHours: number;
}

export interface TrackedSweepFinding extends SweepFinding {
  state: 'open' | 'resolved';
  firstSeen: Date;
  lastSeen: Date;
  resolvedAt: Date | null;
}
