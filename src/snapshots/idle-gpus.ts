import { capacityBlockEnds, type CapacityBlockEnd } from '../checks/idle/capacity-block-ends.js';
import { dashboardLink } from '../domain/instance-links.js';
import { consoleLinkOf } from '../providers/registry.js';
import { idleFindings } from '../checks/idle/idle-findings.js';
import { idleInstanceOf } from '../checks/idle/idle-instance-of.js';
import type { TeamSchedule } from '../checks/idle/team-schedule.js';
import type { Deps } from '../deps.js';
import type { GpuFinding, UnmeteredGpu } from '../domain/gpu-finding.js';
import type { GpuInstance } from '../domain/gpu-inventory.js';
import { unreadInventoryError, type UnreadInventory } from '../domain/inventory-read.js';
import { loadGpuSnapshot, type GpuSnapshot } from './gpu-snapshot.js';
import { consoleLinksOf } from './console-links.js';
import { metricsWindow } from './gpu-windows.js';
import { billedRunBefore } from '../checks/idle/billed-run.js';
import { leftOutNote } from '../domain/left-out-currencies.js';
import { formatMoney } from '../domain/money.js';
import { addDays, toDay } from '../domain/period.js';
import { loadResourceDays } from './resource-lines.js';
import { NO_POD_LABELS_HINT, workloadsWithoutPodLabels } from './pod-labels-hint.js';
import { sharedGpuHints } from './shared-gpu-hints.js';

/** Idle and stalled instances right now, over fresh metrics, before Keep exceptions. */
export async function detectIdleGpus(deps: Deps, now: Date): Promise<GpuFinding[]> {
  return (await detectGpus(deps, now)).findings;
}

/**
 * Whether one instance is idle now: the re-check of a Stop click. It reads that instance's series
 * only (where its metrics source can be asked for one machine) and no bill: the rules that decide
 * idleness need neither the fleet nor prices, and the click should not wait on them. An instance
 * missing while an inventory source does not answer is unknown, not busy: the click is refused as
 * worth a retry.
 */
export async function stillIdle(deps: Deps, instanceId: string): Promise<boolean> {
  const now = deps.clock();
  const snapshot = await loadGpuSnapshot(deps, { window: metricsWindow(deps, now), scope: { instanceIds: [instanceId] }, priced: false });
  if (snapshot.instances.length === 0 && snapshot.unavailable.length > 0) throw unreadInventoryError(instanceId, snapshot.unavailable);
  return idleIn(deps, snapshot, now).findings.some((f) => f.instanceId === instanceId);
}

/**
 * The idle findings, and the instances of the inventory whose GPUs sent no metrics at all over the
 * window (an exporter not running, a node the scrape misses): reported, and idle findings too
 * where `gpu.idle.missing` counts missing data as idle. The inventory sources that could not be
 * read come with them: their machines are not judged this time.
 */
export async function detectGpus(
  deps: Deps,
  now: Date,
): Promise<{
  findings: GpuFinding[];
  unmetered: UnmeteredGpu[];
  blockEnds: CapacityBlockEnd[];
  /** The ids of every instance the inventory listed, idle or not. */
  listed: string[];
  unavailable: UnreadInventory[];
}> {
  const snapshot = await loadGpuSnapshot(deps, { window: metricsWindow(deps, now) });
  const { findings, unmetered } = idleIn(deps, snapshot, now);
  return {
    findings: await withBilledRuns(deps, await withBilledConsoleLinks(deps, findings, snapshot, now), snapshot.window.start),
    unmetered,
    blockEnds: capacityBlockEnds(snapshot.instances, now),
    listed: snapshot.instances.map((i) => i.instanceId),
    unavailable: snapshot.unavailable,
  };
}

/** The idle rules over a snapshot, each finding named as its instance is. */
function idleIn(deps: Deps, snapshot: GpuSnapshot, now: Date): { findings: GpuFinding[]; unmetered: UnmeteredGpu[] } {
  const byId = new Map(snapshot.instances.map((i) => [i.instanceId, i]));
  // A team someone handed the instance to (Not ours) wins; else its tag's team, else its pods' namespace's (attributeSeries).
  const idleOf = (instance: GpuInstance) => idleInstanceOf(instance, snapshot.handedTo.get(instance.instanceId));
  const gpus = snapshot.series.map(({ series, instance }) => ({ series, instance: idleOf(instance) }));
  const metered = new Set(snapshot.series.map(({ instance }) => instance.instanceId));
  const silent = snapshot.instances.filter((i) => !metered.has(i.instanceId) && i.gpuCount > 0 && i.running !== false).map(idleOf);
  const findings = idleFindings({
    gpus,
    unmetered: silent,
    policy: deps.config.gpu.idle,
    now,
    schedules: schedulesOf(deps),
    range: snapshot.window,
  }).map((f) => {
    const instance = byId.get(f.instanceId)!;
    const links = [
      consoleLinkOf({ id: instance.instanceId, region: instance.region, name: instance.name }),
      dashboardLink(instance, deps.config.links.grafana),
    ].filter((link) => link !== undefined);
    const keep = instance.kubernetes?.keep;
    return {
      ...f,
      name: instance.name,
      instanceType: instance.instanceType,
      owner: instance.owner,
      links,
      ...(keep && keep.until > now ? { keptOnResource: keep } : {}),
    };
  });
  // A machine judged by its platform's record of activity has no GPU metrics by design: nothing to report.
  const unreported = silent.filter((i) => !i.activity);
  const withoutPods = workloadsWithoutPodLabels(
    unreported.map((i) => byId.get(i.id)!),
    [...snapshot.unattributed, ...snapshot.series.map((s) => s.series)],
  );
  const shared = sharedGpuHints(
    unreported.map((i) => byId.get(i.id)!),
    snapshot.series,
    snapshot.unattributed,
  );
  const unmetered = unreported.map(
    (i): UnmeteredGpu => ({
      ...(withoutPods.has(i.id) ? { hint: NO_POD_LABELS_HINT } : shared.has(i.id) ? { hint: shared.get(i.id)! } : {}),
      instanceId: i.id,
      name: byId.get(i.id)!.name,
      team: i.team,
      instanceType: byId.get(i.id)!.instanceType,
      gpus: i.gpuCount,
      hourlyPrice: i.hourlyPrice,
    }),
  );
  return { findings, unmetered };
}

/** Days of bill searched for the full id of an instance known by a bare one. */
const BILL_NAMES_DAYS = 35;

/**
 * An instance its console cannot find by its id alone (a Compute Engine VM known by its numeric id)
 * gets its console page where the bill names it in full (consoleLinksOf): first, as its provider's would be.
 */
async function withBilledConsoleLinks(deps: Deps, findings: GpuFinding[], snapshot: GpuSnapshot, now: Date): Promise<GpuFinding[]> {
  const byId = new Map(snapshot.instances.map((i) => [i.instanceId, i]));
  const targetOf = (f: GpuFinding) => ({ id: f.instanceId, region: byId.get(f.instanceId)?.region ?? null, name: f.name });
  const unlinked = findings.filter((f) => !consoleLinkOf(targetOf(f)));
  if (unlinked.length === 0) return findings;
  const links = await consoleLinksOf(deps, addDays(toDay(now), -BILL_NAMES_DAYS), unlinked.map(targetOf));
  return findings.map((f) => {
    const link = links.get(f.instanceId);
    return link && unlinked.includes(f) ? { ...f, links: [link, ...(f.links ?? [])] } : f;
  });
}

/** The currency of the bill note: the idle alert's, whose prices are the catalog's USD. */
const BILL_CURRENCY = 'USD';

/** Days of bill read back for an instance idle through the whole metrics window. */
const BILL_LOOKBACK_DAYS = 120;

/**
 * An instance idle through the whole metrics window started idling earlier than the metrics say:
 * its line says "at least". Where the bill shows it running every hour of the days before the
 * window, the line says since when and what that cost: the metrics cannot say it was idle all
 * along, the bill says it never stopped.
 */
async function withBilledRuns(deps: Deps, findings: GpuFinding[], windowStart: number): Promise<GpuFinding[]> {
  const capped = new Set(findings.filter((f) => Date.parse(f.since) / 1000 <= windowStart));
  if (capped.size === 0) return findings;
  const before = toDay(new Date(windowStart * 1000));
  const { lines, missingOf } = await loadResourceDays(
    deps,
    { start: addDays(before, -BILL_LOOKBACK_DAYS), end: before },
    [...capped].map((f) => f.instanceId),
    { currency: BILL_CURRENCY },
  );
  const days = new Map<string, Map<string, { hours: number; billed: number }>>();
  for (const line of lines) {
    const of = days.get(line.resourceId) ?? new Map<string, { hours: number; billed: number }>();
    of.set(line.day, { hours: line.hours ?? 0, billed: line.cost });
    days.set(line.resourceId, of);
  }
  return findings.map((f) => {
    if (!capped.has(f)) return f;
    const run = billedRunBefore(days.get(f.instanceId) ?? new Map(), before);
    // Charges without a rate are in neither the hours nor the amount read: the line names them,
    // once (the billed rate's price note may have already).
    const note = leftOutNote(missingOf.get(f.instanceId) ?? [], BILL_CURRENCY);
    const leftOut = note && !f.description.includes(note) ? note : null;
    if (!run && !leftOut) return f;
    const said = run
      ? `the bill shows it running every hour of the ${run.days} day${run.days === 1 ? '' : 's'} before, since ${run.since}: ${formatMoney(run.billed, BILL_CURRENCY)} billed${leftOut ? `. ${leftOut}` : ''}`
      : leftOut!;
    return { ...f, description: `${f.description} (${said})` };
  });
}

/** Each team's time zone and working hours, as the idle rules read them. */
export function schedulesOf(deps: Pick<Deps, 'config'>): Map<string, TeamSchedule> {
  return new Map(
    deps.config.teams.map((t) => [t.id, { timezone: t.timezone, workingHours: t.gpu.workingHours ?? deps.config.gpu.workingHours }]),
  );
}
