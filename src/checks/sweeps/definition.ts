import { reconcileById } from '../reconcile-by-id.js';
import { sweepCapFindings } from './sweep-caps.js';
import type { SweepCaps } from './sweep-policy.js';
import { sweepUsage } from './sweep-usage.js';
import { fanOut } from '../../outbox/fan-out.js';
import type { Deps } from '../../deps.js';
import type { FindingChange } from '../../domain/finding-change.js';
import type { SweepFinding } from '../../domain/sweep-finding.js';
import type { OutboxDraft } from '../../store/outbox-records.js';
import { sweepAlert, sweepDetails } from '../../../templates/sweep-alert.js';
import { loadGpuSnapshot, type GpuSnapshot } from '../../snapshots/gpu-snapshot.js';
import { sweepWindow } from '../../snapshots/gpu-windows.js';
import type { CheckDefinition, FindingFace } from '../definition.js';

export interface SweepCheckResult {
  findings: (SweepFinding & { state: 'new' | 'open' })[];
  resolved: string[];
  queued: OutboxDraft[];
}

interface SweepInput {
  snapshot: GpuSnapshot;
  tagKey: string;
  windowHours: number;
  tracked: { id: string }[];
}

interface SweepRun {
  change: FindingChange<SweepFinding>;
  current: SweepFinding[];
}

/**
 * The runaway-sweep check (run by runCheck, after each idle-GPU check):
 *   1. collect: the inventory and the metrics of the last sweeps.windowHours, and the open findings
 *   2. evaluate: add up each sweep's spend and GPU-hours (pure), compare with its team's caps (pure)
 *   3. reconcile with the open findings: a crossing opens a finding and alerts once; a sweep back
 *      under its cap resolves it, so a later crossing alerts again
 *   4. alerts: one per crossing and platform
 *   5. record findings and queue the alerts in one transaction (skipped on a dry run)
 */
export function sweepCheck(caps: ReadonlyMap<string, SweepCaps>): CheckDefinition<'sweepFindings', SweepInput, SweepRun, SweepCheckResult> {
  return {
    table: 'sweepFindings',
    async collect(deps, now) {
      // Teams as tagged: a sweep is its tag's. sweepUsage ties series to instances by instance id only
      // (as it always has); series named by host name or IP, which the snapshot ties too, count for none.
      const snapshot = await loadGpuSnapshot(deps, { window: sweepWindow(deps, now), ownership: 'tags' });
      const { tagKey, windowHours } = deps.config.sweeps;
      return { snapshot, tagKey, windowHours, tracked: await deps.store.sweepFindings.listOpen() };
    },
    evaluate({ snapshot: { instances, series, window }, tagKey, windowHours }) {
      const usage = sweepUsage(
        instances,
        series.map((s) => s.series),
        window,
        tagKey,
      );
      return sweepCapFindings(usage, caps, windowHours);
    },
    // While an inventory source cannot be read a sweep's spend is counted short: none is resolved
    // by it (it would alert again once the source answers); one over its cap even so opens.
    reconcile: (_deps, { tracked, snapshot }, current) => {
      const seen = new Set(current.map((f) => f.id));
      const judged = snapshot.unavailable.length > 0 ? tracked.filter((f) => seen.has(f.id)) : tracked;
      return { change: reconcileById(current, judged), current };
    },
    alerts: async (deps, { change }, now) => addressSweepAlerts(deps, change.opened, now),
    report({ change, current }, queued) {
      const opened = new Set(change.opened.map((f) => f.id));
      return { findings: current.map((f) => ({ ...f, state: opened.has(f.id) ? 'new' : 'open' })), resolved: change.resolved, queued };
    },
  };
}

/** Teams with sweepCaps only; none, nothing to read. */
export function sweepCheckOf(deps: Pick<Deps, 'config'>): ReturnType<typeof sweepCheck> | null {
  const caps = new Map(deps.config.teams.flatMap((t) => (t.sweepCaps ? [[t.id, t.sweepCaps] as const] : [])));
  return caps.size === 0 ? null : sweepCheck(caps);
}

/** The alerts a snooze of a sweep finding silences: that cap of that sweep. */
export function sweepGroup(finding: Pick<SweepFinding, 'id'>): string {
  return finding.id;
}

/**
 * One alert per crossing and platform; the key holds the run time, so a retry of the run queues
 * nothing twice. A snoozed sweep cap is recorded as usual but says nothing.
 */
async function addressSweepAlerts(deps: Deps, opened: readonly SweepFinding[], now: Date): Promise<OutboxDraft[]> {
  const snoozed = opened.length === 0 ? new Set<string>() : new Set((await deps.store.snoozes.active(now)).map((s) => s.groupKey));
  return opened.flatMap((finding) => {
    const team = deps.config.teams.find((t) => t.id === finding.team);
    if (!team || snoozed.has(sweepGroup(finding))) return [];
    const message = sweepAlert({ teamName: team.name ?? team.id, finding, dryRun: !deps.config.actions.enabled });
    return fanOut(deps.chat, team, `sweep.cap:${finding.id}:${now.toISOString()}`, message);
  });
}

/** Sweep findings as the generic finding buttons (Acknowledge, Snooze, Details) see them. */
export const sweepFindings: FindingFace = {
  async get(deps, id) {
    const finding = await deps.store.sweepFindings.get(id);
    if (!finding) return null;
    const cap = finding.kind === 'sweep.spend' ? 'spend cap' : 'GPU-hour cap';
    return {
      id,
      kind: 'sweepFindings',
      team: finding.team,
      group: sweepGroup(finding),
      periodEnd: null,
      label: `sweep ${finding.sweep} over its ${cap}`,
      finding,
    };
  },
  details: (deps, handle) => {
    const finding = handle.finding as SweepFinding;
    const team = deps.config.teams.find((t) => t.id === finding.team);
    return sweepDetails(finding, team?.name ?? finding.team);
  },
};
