import type { GpuSeries, MetricsRange } from '../../domain/gpu-metrics.js';
import type { IdleFinding, IdleFindingKind } from '../../domain/gpu-finding.js';
import type { CommitmentCover, NotebookPlatform, PlatformActivity, PrepaidCapacity } from '../../domain/gpu-inventory.js';
import { activityIdle, activityNote } from './activity-idle.js';
import { describeIdleSince } from './describe-idle.js';
import { idleEvidence } from './idle-evidence.js';
import { detectIdleIntervalsMany } from './detect-idle.js';
import type { IdlePolicy } from './idle-policy.js';
import { instanceIdle, openGpuState, type GpuIdleState } from './instance-idle.js';
import { DEFAULT_SCHEDULE, type TeamSchedule } from './team-schedule.js';
import { countPhysicalGpus, physicalGpuKey } from '../../domain/physical-gpus.js';

/** What the idle check needs to know of an instance (DemoInstance and inventory rows both map onto it). */
export interface IdleInstance {
  id: string;
  /** Team id; null when nobody owns it (UTC and an office week are assumed for its wording). */
  team: string | null;
  hourlyPrice: number;
  gpuCount: number;
  /** Never stopped by an action: the finding is still made, so the cost is seen. */
  protected: boolean;
  workload?: string;
  /** Where its price comes from when not its own region's catalog price; said in the finding. */
  priceNote?: string;
  /** Paid whether it runs or not: its finding says so, and no stop saving is promised. */
  prepaid?: PrepaidCapacity;
  /** The share of its cost a Savings Plan (or reservation) pays running or not: its finding promises a saving on the rest only. */
  covered?: CommitmentCover;
  /** A notebook platform's server: its finding says what the platform's culling is set to; `idle.notebooks: defer` leaves it to it. */
  notebook?: NotebookPlatform;
  /** No GPU metrics exist for it: the platform's own record of activity says whether it is idle. */
  activity?: PlatformActivity;
}

export interface IdleFindingsInput {
  /** One entry per GPU or MIG slice; entries sharing an instance id are that instance's. */
  gpus: readonly { series: GpuSeries; instance: IdleInstance }[];
  policy: IdlePolicy;
  now: Date;
  /** By team id. */
  schedules: ReadonlyMap<string, TeamSchedule>;
  /** The window the series were fetched for; by default from the earliest sample to now, one-minute steps. */
  range?: MetricsRange;
  /** Instances of the inventory with no series at all: idle through the window when the policy counts missing data as idle. */
  unmetered?: readonly IdleInstance[];
}

const DEFAULT_STEP_SECONDS = 60;

/** Instances idle or stalled right now, most money burned first. */
export function idleFindings(input: IdleFindingsInput): IdleFinding[] {
  const { policy, now } = input;
  const range = input.range ?? defaultRange(input);
  const intervals = detectIdleIntervalsMany(
    input.gpus.map((gpu) => gpu.series),
    policy,
    range,
  );
  const byInstance = new Map<string, { instance: IdleInstance; states: (GpuIdleState | null)[]; series: GpuSeries[] }>();
  input.gpus.forEach(({ instance, series }, index) => {
    const entry = byInstance.get(instance.id) ?? { instance, states: [], series: [] };
    entry.states.push(openGpuState(intervals[index]!));
    entry.series.push(series);
    byInstance.set(instance.id, entry);
  });
  for (const instance of input.unmetered ?? [])
    if (!byInstance.has(instance.id)) byInstance.set(instance.id, { instance, states: [], series: [] });

  const findings: IdleFinding[] = [];
  for (const { instance, states, series } of byInstance.values()) {
    // Left to the platform's own culler, unless burnrate reads that it culls nothing.
    if (policy.notebooks === 'defer' && instance.notebook && instance.notebook.culls !== false) continue;
    // Slices of one GPU are one GPU: the count and the padding go by physical GPUs.
    const physical = countPhysicalGpus(series.map((s) => s.ref));
    // Without any series, the platform's own record of activity (where it keeps one) judges it, not the missing-data policy.
    const byActivity = series.length === 0 ? instance.activity : undefined;
    // GPUs the instance has but no series for are missing data: idle only if the policy says so.
    let padded = 0;
    for (let gpu = physical; gpu < instance.gpuCount; gpu++, padded++) {
      const whole = range.end - range.start;
      states.push(policy.missing === 'idle' ? { kind: 'idle', since: range.start, missingSeconds: whole } : null);
    }
    const idle = byActivity ? activityIdle(byActivity, policy, now) : instanceIdle(states, range.end);
    if (!idle) continue;
    const stalledGpus = new Set(series.filter((_, i) => states[i]?.kind === 'stalled').map((s) => physicalGpuKey(s.ref))).size;
    const sinceMs = idle.since * 1000;
    const idleMs = Math.max(0, now.getTime() - sinceMs);
    const hours = idleMs / 3_600_000;
    const kind: IdleFindingKind = idle.kind === 'stalled' ? 'gpu.stalled' : 'gpu.idle';
    const since = new Date(sinceMs).toISOString();
    const schedule = (instance.team !== null ? input.schedules.get(instance.team) : undefined) ?? DEFAULT_SCHEDULE;
    findings.push({
      id: `${kind}:${instance.id}:${since}`,
      kind,
      team: instance.team,
      instanceId: instance.id,
      workload: instance.workload ?? null,
      protected: instance.protected,
      since,
      idleMinutes: Math.floor(idleMs / 60_000),
      burned: toCents(instance.hourlyPrice * hours),
      perDay: toCents(instance.hourlyPrice * 24),
      hourlyPrice: instance.hourlyPrice,
      gpus: physical + padded,
      stalledGpus,
      missingMinutes: Math.round(idle.missingSeconds / 60),
      description:
        describeIdleSince(new Date(sinceMs), now, schedule.timezone, schedule.workingHours) +
        (byActivity
          ? activityNote(byActivity)
          : capped(idle.since, range) +
            (series.length === 0 ? ' (no GPU metrics at all: missing data counts as idle, gpu.idle.missing)' : '')) +
        (instance.priceNote ? ` (${instance.priceNote})` : ''),
      evidence: idleEvidence(series, Math.max(idle.since, range.start), range.end),
      ...(instance.prepaid ? { prepaid: instance.prepaid } : {}),
      ...(instance.covered && !instance.prepaid
        ? { covered: { ...instance.covered, uncoveredPerDay: toCents(instance.hourlyPrice * 24 * (1 - instance.covered.share)) } }
        : {}),
      ...(instance.notebook ? { notebook: instance.notebook } : {}),
    });
  }
  return findings.sort((a, b) => b.burned - a.burned || a.instanceId.localeCompare(b.instanceId));
}

/**
 * Idle through the whole window of metrics read: it started earlier, so the time and the money
 * burned are lower bounds, and the description says so rather than inventing a start.
 */
function capped(since: number, range: { start: number; end: number }): string {
  if (since > range.start) return '';
  const hours = Math.round((range.end - range.start) / 3600);
  return ` (at least: idle through all ${hours} h of metrics read, so the amount burned is at least this too)`;
}

/** Rounds money to the cent; the 12-digit precision first strips binary noise such as 4.004999999. */
export function toCents(amount: number): number {
  return Math.round(Number((amount * 100).toPrecision(12))) / 100;
}

function defaultRange(input: IdleFindingsInput): MetricsRange {
  const end = input.now.getTime() / 1000;
  let start = end;
  for (const { series } of input.gpus) if (series.times.length > 0) start = Math.min(start, series.times[0]!);
  return { start, end, stepSeconds: DEFAULT_STEP_SECONDS };
}
