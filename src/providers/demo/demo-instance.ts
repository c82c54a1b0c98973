import type { CloudProvider } from '../../domain/price-catalog.js';

// What a demo instance is: the fleet (demo-fleet.ts) builds them, the schedule (demo-schedule.ts)
// says when each runs; both read these shapes, so they live apart from either.

export type WorkloadKind = 'training' | 'inference' | 'notebook' | 'sweep';
export type Lifecycle = 'on-demand' | 'spot';
/** FOCUS PricingCategory of the instance's usage: spot is Dynamic, Savings-Plan-covered usage Committed. */
export type DemoPricing = 'Standard' | 'Dynamic' | 'Committed';
/** What the GPUs do while the instance runs: ground truth for utilisation (idle = paid for, unused). */
export type Activity = 'training' | 'serving' | 'interactive' | 'idle';

/** When an instance runs. Every pattern is a pure function of (instance, UTC day): no state, no clock. */
export type RunPattern =
  /** Always on (inference endpoints, a forgotten box). */
  | { kind: 'always'; activity: Activity }
  /**
   * Back-to-back training runs in cycles of `cycleDays`: each cycle opens with a gap (job queued,
   * data prep, a crash nobody noticed yet), may be skipped entirely, and may end with an idle tail
   * (the run finished, the instance stayed up).
   */
  | {
      kind: 'runs';
      cycleDays: number;
      phaseDays: number;
      gapHours: [number, number];
      skipChance: number;
      idleTailChance: number;
      idleTailHours: [number, number];
    }
  /** A notebook: weekday sessions from about `startHourUtc`, sometimes left on overnight or over the weekend. */
  | { kind: 'workdays'; startHourUtc: number; sessionHours: [number, number]; overnightChance: number; weekendChance: number }
  /** Autoscaled replicas serving weekday traffic. */
  | { kind: 'business-hours'; startHourUtc: number; hours: number }
  /** Hyper-parameter sweeps: a burst in most cycles. */
  | { kind: 'bursts'; cycleDays: number; phaseDays: number; burstChance: number; burstHours: [number, number] };

export interface DemoInstance {
  /** AWS i-0... id, or the numeric id GCP gives an instance; also the spend rows' resourceId. */
  instanceId: string;
  name: string;
  provider: CloudProvider;
  /** AWS account id or GCP project id. */
  subAccount: string;
  region: string;
  zone: string;
  instanceType: string;
  gpuModel: string;
  gpuCount: number;
  gpuMemoryGiB: number | null;
  lifecycle: Lifecycle;
  pricing: DemoPricing;
  /** Catalog price per hour: on-demand, or spot for spot instances. This is what is billed (0 if Committed). */
  hourlyPrice: number;
  /** What an hour really costs: the amortised Savings Plan rate for Committed usage, else hourlyPrice. */
  effectiveHourly: number;
  /** The raw ownership tag value (null: untagged); the key it sits under is in `tags`. */
  teamTag: string | null;
  tags: Readonly<Record<string, string>>;
  workload: WorkloadKind;
  /** Chat user id of the owner (demo config ids); null when nobody knows (untagged, unknown team). */
  owner: string | null;
  /** Never stopped by an action (production inference). */
  protected: boolean;
  pattern: RunPattern;
  /** Share of GPU memory held while it works, when not the usual for its activity; null: the usual. */
  memoryShare: readonly [number, number] | null;
  /** Seeds the instance's own random stream, so its days are independent of every other instance. */
  scheduleSeed: number;
}

/** A stretch of one UTC day the instance ran, in hours from 00:00Z (0 <= start < end <= 24). */
export interface DayInterval {
  start: number;
  end: number;
  activity: Activity;
}
