import { createHash } from 'node:crypto';
import { reconcileById } from '../reconcile-by-id.js';
import { describeIdleSince } from './describe-idle.js';
import { toCents } from './idle-findings.js';
import { DEFAULT_SCHEDULE } from './team-schedule.js';
import { fanOut, toPerson } from '../../outbox/fan-out.js';
import { idleDetails, ownerIdleAlert } from '../../../templates/idle-alert.js';
import { inTimeZone } from '../../../templates/message.js';
import type { ClusterRead } from '../../ports/cluster-read.js';
import { unansweredClusterNotices } from './definition/cluster-notices.js';
import { capacityBlockNotices } from './definition/capacity-block-notices.js';
import { neverRead, unreadInventoryNotices, type WaitingFinding } from './definition/unread-inventory-notices.js';
import type { UnreadInventory } from '../../domain/inventory-read.js';
import type { CapacityBlockEnd } from './capacity-block-ends.js';
import type { Deps } from '../../deps.js';
import { instanceLabel, type GpuFinding, type TrackedGpuFinding, type UnmeteredGpu } from '../../domain/gpu-finding.js';
import { UNOWNED_ID } from '../../domain/unowned.js';
import { autoStopIdle } from './definition/auto-stop.js';
import { alertTeam, idleAlertFor, idleThread, type AlertedFinding } from '../../snapshots/idle-alert-content.js';
import { detectGpus, schedulesOf } from '../../snapshots/idle-gpus.js';
import { metricsCoverageNotice } from '../../../templates/idle-status.js';
import type { FindingChange } from '../../domain/finding-change.js';
import type { OutboxDraft } from '../../store/outbox-records.js';
import type { CheckDefinition, FindingFace } from '../definition.js';

export interface GpuCheckOptions {
  /** Evaluate and report, but record nothing and queue no alert. */
  dryRun?: boolean;
  /** Only these teams. */
  teams?: readonly string[];
}

export type GpuFindingState = 'new' | 'open' | 'resolved';

export interface GpuCheckResult {
  /** Idle instances now (minus those kept running), with their state against earlier runs. */
  findings: (GpuFinding & { state: GpuFindingState })[];
  /** Findings idle now but under an active Keep exception: not alerted. */
  kept: GpuFinding[];
  /** GPU instances of the inventory that sent no metrics at all over the window. */
  noMetrics: UnmeteredGpu[];
  /**
   * Inventory sources (and clusters never read) that could not be read: their machines were not
   * judged, and their open findings were left as they were.
   */
  unavailable: UnreadInventory[];
  queued: OutboxDraft[];
}

interface GpuInput {
  /** Idle instances now, in scope, before Keep exceptions. */
  all: GpuFinding[];
  keeps: Set<string>;
  tracked: TrackedGpuFinding[];
  unmetered: UnmeteredGpu[];
  /** Clusters whose API server did not answer this run's read. */
  unanswered: ClusterRead[];
  /** Capacity Blocks ending within a day, to announce. */
  blockEnds: CapacityBlockEnd[];
  /** Inventory sources that could not be read (clusters are in `unanswered`). */
  unavailable: UnreadInventory[];
  /** Open findings of machines no source listed while one could not be read: left as they were. */
  waiting: WaitingFinding[];
}

interface GpuRun {
  change: FindingChange<GpuFinding>;
  /** Open after this run, with the start of their alerts' idle periods. */
  open: AlertedFinding[];
  kept: GpuFinding[];
  tracked: TrackedGpuFinding[];
  unmetered: UnmeteredGpu[];
  unanswered: ClusterRead[];
  blockEnds: CapacityBlockEnd[];
  unavailable: UnreadInventory[];
  waiting: WaitingFinding[];
}

/**
 * The idle-GPU check (run by runCheck):
 *   1. collect: every GPU's metrics for the last `gpu.lookbackHours` (default 24 h) and the inventory,
 *      through the idle detection (idleFindings) with each team's time zone and working hours
 *   2. evaluate: drop instances someone chose to keep running (an active Keep exception)
 *   3. reconcile with what earlier runs found (new, still open, resolved)
 *   4. alerts: ONE message per team that has a new idle instance, listing all its idle instances
 *   5. record findings and queue the messages in one transaction, then the automatic stops
 *      (both skipped on a dry run)
 *
 * The window: each run evaluates the whole lookback window, so "idle since" is exact for periods
 * shorter than it; an instance idle for longer reads "idle since" the window's start (carryOver
 * keeps the first start). The configured metrics sources keep the window in memory and ask the
 * backend only for the samples since their last run (src/providers/rolling-window-metrics.ts); the
 * first run after a start reads the whole window.
 */
export function gpuCheck(options: GpuCheckOptions = {}): CheckDefinition<'gpuFindings', GpuInput, GpuRun, GpuCheckResult> {
  return {
    table: 'gpuFindings',
    async collect(deps, now) {
      const teamIds = new Set(deps.config.teams.map((t) => t.id).filter((id) => !options.teams || options.teams.includes(id)));
      // Instances of no team count too (they cost the same); a run for named teams leaves them out.
      const inScope = (f: { team: string | null }) => (f.team === null ? !options.teams : teamIds.has(f.team));
      const detected = await detectGpus(deps, now);
      const all = detected.findings.filter(inScope);
      const keeps = new Set([
        ...(await deps.store.keeps.active(now)).map((k) => k.instanceId),
        ...all.filter((f) => f.keptOnResource).map((f) => f.instanceId),
      ]);
      const unanswered = ((await deps.gpu?.clusters?.()) ?? []).filter((c) => c.unanswered);
      // A finding of a machine no source listed, while a source (or a cluster never read) could not
      // be read, may be that source's: unknown, not gone. It is neither resolved nor seen again, so
      // nothing of it changes.
      const unread = detected.unavailable.length > 0 || neverRead(unanswered).length > 0;
      if (!options.dryRun)
        for (const { source, error } of detected.unavailable)
          deps.log.warn({ source, err: error }, 'idle check: a GPU inventory could not be read; its machines are not judged this run');
      const listed = new Set(detected.listed);
      const open = (await deps.store.gpuFindings.listOpen()).filter(inScope);
      const tracked = open.filter((f) => !unread || listed.has(f.instanceId));
      const waiting = open.filter((f) => !tracked.includes(f)).map(({ instanceId, team }) => ({ instanceId, team }));
      const blockEnds = detected.blockEnds.filter(inScope);
      return {
        all,
        keeps,
        tracked,
        unmetered: detected.unmetered.filter(inScope),
        unanswered,
        blockEnds,
        unavailable: detected.unavailable,
        waiting,
      };
    },
    evaluate: ({ all, keeps }) => all.filter((f) => !keeps.has(f.instanceId)),
    reconcile(deps, { all, keeps, tracked, unmetered, unanswered, blockEnds, unavailable, waiting }, current, now) {
      const change = reconcileGpuFindings(carryOver(deps, current, tracked, now), tracked);
      const firstSeen = new Map(tracked.map((f) => [f.id, f.firstSeen]));
      const open = [...change.opened, ...change.stillOpen].map((f) => ({ ...f, firstSeen: firstSeen.get(f.id) ?? now }));
      return {
        change,
        open,
        kept: all.filter((f) => keeps.has(f.instanceId)),
        tracked,
        unmetered,
        unanswered,
        blockEnds,
        unavailable,
        waiting,
      };
    },
    alerts: async (deps, { open, change, unmetered, unanswered, blockEnds, unavailable, waiting }, now) => [
      ...(await addressIdleAlerts(deps, open, change, now)),
      ...coverageNotices(deps, unmetered, now),
      ...unansweredClusterNotices(deps, unanswered, now, options.teams),
      ...unreadInventoryNotices(deps, unavailable, waiting, now, options.teams),
      ...capacityBlockNotices(deps, blockEnds),
    ],
    afterRecord: (deps, { open }, now) => autoStopIdle(deps, open, now),
    report({ change, open, kept, tracked, unmetered, unanswered, unavailable }, queued) {
      const opened = new Set(change.opened.map((f) => f.id));
      const findings = [
        ...open.map(({ firstSeen: _f, ...f }) => ({ ...f, state: opened.has(f.id) ? ('new' as const) : ('open' as const) })),
        ...tracked
          .filter((t) => change.resolved.includes(t.id))
          .map(({ state: _s, firstSeen: _f, lastSeen: _l, resolvedAt: _r, ...f }) => ({ ...f, state: 'resolved' as const })),
      ];
      // Which machines a source had is for addressing its notice, not part of the answer.
      const named = unavailable.map(({ source, error }) => ({ source, error }));
      return { findings, kept, noMetrics: unmetered, unavailable: [...named, ...neverRead(unanswered)], queued };
    },
  };
}

/**
 * An instance idle for longer than the lookback window reads "idle since" the window's start, which
 * moves with every run. An open finding of the same kind and instance that started earlier is the
 * same idle period: it keeps its id and start (and burned counts from there), so it is not alerted
 * again. (Should the instance have worked between two runs without a run seeing it, the periods merge.)
 */
function carryOver(deps: Deps, current: readonly GpuFinding[], tracked: readonly TrackedGpuFinding[], now: Date): GpuFinding[] {
  const open = new Map(tracked.map((f) => [`${f.kind}:${f.instanceId}`, f]));
  const schedules = schedulesOf(deps);
  return current.map((f) => {
    const earlier = open.get(`${f.kind}:${f.instanceId}`);
    if (!earlier || earlier.id === f.id || earlier.since >= f.since) return f;
    const since = new Date(earlier.since);
    const idleMs = Math.max(0, now.getTime() - since.getTime());
    const schedule = (f.team !== null ? schedules.get(f.team) : undefined) ?? DEFAULT_SCHEDULE;
    return {
      ...f,
      id: earlier.id,
      since: earlier.since,
      idleMinutes: Math.floor(idleMs / 60_000),
      burned: toCents((f.hourlyPrice * idleMs) / 3_600_000),
      description: describeIdleSince(since, now, schedule.timezone, schedule.workingHours),
    };
  });
}

/** The alerts a snooze of an idle finding silences: that instance's, of that kind (idle or stalled). */
export function idleGroup(finding: Pick<GpuFinding, 'kind' | 'instanceId'>): string {
  return `${finding.kind}:${finding.instanceId}`;
}

/** New, still open and resolved, by finding id (kind, instance and start of the idle period). */
export function reconcileGpuFindings(current: readonly GpuFinding[], openTracked: readonly TrackedGpuFinding[]): FindingChange<GpuFinding> {
  return reconcileById(current, openTracked);
}

/**
 * Each team whose GPU instances send no metrics hears it once a day (the key names the UTC day):
 * often enough that a broken exporter is fixed, rarely enough not to be muted.
 */
function coverageNotices(deps: Deps, unmetered: readonly UnmeteredGpu[], now: Date): OutboxDraft[] {
  if (deps.chat.length === 0) return [];
  return deps.config.teams.flatMap((team) => {
    const silent = unmetered.filter((u) => u.team === team.id);
    return silent.length === 0
      ? []
      : fanOut(
          deps.chat,
          team,
          `gpu.coverage:${team.id}:${now.toISOString().slice(0, 10)}`,
          metricsCoverageNotice(team.name ?? team.id, silent),
        );
  });
}

/**
 * One message per team and platform, only when the team has a newly idle instance; it lists all
 * the team's idle instances. Instances of no team get theirs too, in the channels `gpu.unowned`
 * names (and the console). An instance already alerted is not alerted again while it stays idle
 * (it is open, not new); the key (team, run time, new findings) makes a retry of the same run queue nothing
 * twice, while a finding that reopens later (a Keep ran out) is alerted again.
 */
async function addressIdleAlerts(
  deps: Deps,
  current: readonly AlertedFinding[],
  change: FindingChange<GpuFinding>,
  now: Date,
): Promise<OutboxDraft[]> {
  if (deps.chat.length === 0) return [];
  // A snoozed instance's new idle period is recorded as usual but alerts nobody.
  const snoozed = change.opened.length === 0 ? new Set<string>() : new Set((await deps.store.snoozes.active(now)).map((s) => s.groupKey));
  const drafts: OutboxDraft[] = [];
  for (const team of [...deps.config.teams.map((t) => t.id), null]) {
    const opened = change.opened.filter((f) => f.team === team && !snoozed.has(idleGroup(f)));
    if (opened.length === 0) continue;
    const items = current.filter((f) => f.team === team).sort((a, b) => b.burned - a.burned || a.instanceId.localeCompare(b.instanceId));
    const message = await idleAlertFor(deps, team, items);
    const key = createHash('sha256')
      .update(
        opened
          .map((f) => f.id)
          .sort()
          .join('\n'),
      )
      .digest('hex')
      .slice(0, 16);
    const threads = opened.map((f) => idleThread(team, f.id));
    const keyBase = `gpu.idle:${team ?? UNOWNED_ID}:${now.toISOString()}:${key}`;
    drafts.push(...fanOut(deps.chat, alertTeam(deps, team)!, keyBase, message, threads));
    drafts.push(...(await toOwners(deps, team, opened, items, keyBase)));
  }
  return drafts;
}

/**
 * Each person a newly idle instance's `burnrate:owner` tag names (a user id, or an email the chat
 * platform knows) gets their instances' alert by direct message too, on every platform that can
 * start one; an owner no platform can reach is only in the channel.
 */
async function toOwners(
  deps: Deps,
  team: string | null,
  opened: readonly GpuFinding[],
  items: readonly AlertedFinding[],
  keyBase: string,
): Promise<OutboxDraft[]> {
  const drafts: OutboxDraft[] = [];
  const teamConfig = alertTeam(deps, team);
  const teamName = teamConfig?.name ?? team ?? 'Unowned GPUs';
  for (const owner of new Set(opened.flatMap((f) => (f.owner ? [f.owner] : [])))) {
    const alert = ownerIdleAlert(
      await idleAlertFor(
        deps,
        team,
        items.filter((f) => f.owner === owner),
      ),
      teamName,
    );
    // A direct message has no channel to take the zone from: the owner's team's clock.
    const message = inTimeZone(alert, teamConfig?.timezone);
    drafts.push(...toPerson(deps.chat, owner, `${keyBase}:owner:${owner}`, message));
  }
  return drafts;
}

/** Idle-GPU findings as the generic finding buttons (Acknowledge, Snooze) see them. */
export const idleFindings: FindingFace = {
  async get(deps, id) {
    const finding = await deps.store.gpuFindings.get(id);
    if (!finding) return null;
    const label = `${instanceLabel(finding)} ${finding.kind === 'gpu.stalled' ? 'stalled' : 'idle'}`;
    return { id, kind: 'gpuFindings', team: finding.team, group: idleGroup(finding), periodEnd: null, label, finding };
  },
  details: (_deps, handle) => idleDetails(handle.finding as GpuFinding),
};
