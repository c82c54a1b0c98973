import { loadPriceCatalog } from '../catalog/price-catalog.js';
import { droppedNotesFor } from '../catalog/price-order.js';
import { detectIdleIntervalsMany } from '../checks/idle/detect-idle.js';
import { gpuUsageOf } from '../checks/recommend/gpu-usage.js';
import { diagnoseWasteExplained, type BilledResource } from '../checks/waste/diagnose-waste.js';
import { addGpuTime, emptyGpuTime, type GpuTime } from '../checks/waste/gpu-time.js';
import type { Deps } from '../deps.js';
import type { GpuSeries } from '../domain/gpu-metrics.js';
import { addDays, daysBetween, monthOf, toDay, type Period } from '../domain/period.js';
import { BurnrateError } from '../domain/errors.js';
import { parseMonth } from '../domain/calendar-range.js';
import type { CommitmentReport, TeamWaste, WasteDiagnosis } from '../domain/waste.js';
import { leftOutNote } from '../domain/left-out-currencies.js';
import { loadFxRates } from './fx-rates.js';
import { loadGpuSnapshot, type GpuSnapshot } from './gpu-snapshot.js';
import { loadResourceCosts, loadUnusedCommitments } from './resource-lines.js';
import { periodWindow } from './gpu-windows.js';
import { loadHostPeaks } from './host-peaks.js';
import { goneHosts, goneInstance, unreadInstance } from './retired-instances.js';
import { unreadCouldList } from '../providers/registry.js';
import { staticCapacity } from '../checks/kubernetes/static-capacity.js';
import type { TeamSchedule } from '../checks/idle/team-schedule.js';

/** Days in an average month: what a period of other length is scaled to. */
const DAYS_PER_MONTH = 365.25 / 12;

/**
 * The waste diagnosis of a period, for every team and the organisation, in the fx base currency:
 * the bill's charges for each GPU instance of the inventory, split by what its GPUs did over the
 * same days (src/checks/waste/diagnose-waste.ts). Read-only. Throws burnrate_gpu_unconfigured
 * without GPU sources: without metrics there is nothing to diagnose. `loaded`: the period's GPU
 * snapshot when the caller has read it already (the monthly review reads a month once).
 */
export async function loadWasteDiagnosis(deps: Deps, period: Period, loaded?: GpuSnapshot): Promise<WasteDiagnosis> {
  return (await loadWasteExplained(deps, period, loaded)).diagnosis;
}

/** loadWasteDiagnosis, with how each cause's figure was made (the instances, hours and rates behind it) on demand. */
export async function loadWasteExplained(
  deps: Deps,
  period: Period,
  loaded?: GpuSnapshot,
): Promise<ReturnType<typeof diagnoseWasteExplained>> {
  const window = loaded?.window ?? periodWindow(period, deps.clock());
  const [snapshot, fx] = await Promise.all([loaded ?? loadGpuSnapshot(deps, { window, ownership: 'tags' }), loadFxRates(deps)]);
  const currency = fx.base;
  // Kubernetes workloads are priced at their share of their nodes' bill (src/store/kube-attribution.ts);
  // host peaks are machines'.
  const listed = snapshot.instances;
  // The period's bill, not only today's inventory: a machine terminated since is asked about by
  // the id its metrics name it by (src/snapshots/retired-instances.ts).
  const unlisted = goneHosts((snapshot.unattributed ?? []).filter((s) => !listed.some((i) => i.instanceId === s.ref.host)));
  // While a source cannot be read, a machine no source listed may be one of its machines: unknown,
  // not gone, when it could be (its provider's id, a region it reads) or it was at its last good read.
  const unread = snapshot.unavailable ?? [];
  const lastRead = new Set(
    unread.flatMap((u) => (u.lastRead ?? []).map((m) => m.instanceId)).filter((id) => !listed.some((i) => i.instanceId === id)),
  );
  const ids = [...new Set([...listed.map((i) => i.instanceId), ...unlisted.keys(), ...lastRead])];
  // Each billing period's charges at that period's rate: a 30-day window across two months is two rates.
  const inBase = { currency, fx };
  const [costs, unused, hosts, pools] = await Promise.all([
    loadResourceCosts(deps, period, ids, inBase),
    loadUnusedCommitments(deps, period, inBase),
    loadHostPeaks(
      deps,
      window,
      listed.filter((i) => !i.kubernetes),
    ),
    deps.store.kubeUsage.poolSamples(period),
  ]);
  // Its bill stays in the spend, in no cause (no idle time from metrics nobody can tie to a type).
  const couldBeUnread = unreadCouldList(deps.config.gpu.inventory, unread);
  const billOf = (id: string) => costs.lines.find((c) => c.resourceId === id);
  const isUnknown = (id: string) => lastRead.has(id) || couldBeUnread({ id, region: billOf(id)?.region ?? null });
  const goneBilled = [...unlisted].flatMap(([id, series]) => {
    const bill = billOf(id);
    return bill && !isUnknown(id)
      ? [
          {
            instance: goneInstance(id, series, { team: bill.team, provider: bill.provider, name: bill.resourceName }),
            series,
          },
        ]
      : [];
  });
  const unknown = [...new Set([...unlisted.keys(), ...lastRead])].flatMap((id) => {
    const bill = billOf(id);
    return bill && isUnknown(id) ? [unreadInstance(id, { team: bill.team, provider: bill.provider, name: bill.resourceName })] : [];
  });
  const machines = [...listed, ...goneBilled.map((g) => g.instance), ...unknown];

  const seriesOf = new Map<string, GpuSeries[]>();
  for (const { series, instance } of snapshot.series)
    seriesOf.set(instance.instanceId, [...(seriesOf.get(instance.instanceId) ?? []), series]);
  for (const { instance, series } of goneBilled) seriesOf.set(instance.instanceId, series);
  const all = [...seriesOf.values()].flat();
  const indexOf = new Map(all.map((s, i) => [s, i]));
  const detected = detectIdleIntervalsMany(all, deps.config.gpu.idle, window);
  const floor = deps.config.waste.inferenceUtilFloor;
  const instances = machines.map((instance) => {
    const series = seriesOf.get(instance.instanceId) ?? [];
    if (series.length === 0) return { instance, time: null, usage: null };
    const time = series.reduce<GpuTime>(
      (into, s) => addGpuTime(into, s, detected[indexOf.get(s)!]!, window, instance.workload === 'inference' ? floor : null),
      emptyGpuTime(),
    );
    return { instance, time, usage: { ...gpuUsageOf(series, window), host: hosts.get(instance.instanceId) ?? null } };
  });

  const billed: BilledResource[] = costs.lines;
  const days = daysBetween(period.start, period.end);
  const catalog = loadPriceCatalog();
  const explained = diagnoseWasteExplained({
    period: { ...period, days },
    monthFactor: isCalendarMonth(period) ? 1 : DAYS_PER_MONTH / days,
    currency,
    teams: deps.config.teams.map((t) => ({ id: t.id, name: t.name ?? t.id })),
    instances,
    billed,
    unusedCommitments: unused.lines,
    periodSeconds: window.end - window.start,
    today: toDay(deps.clock()),
    commitmentOwner: deps.config.showback.commitmentOwner,
    runTagKey: deps.config.unitCosts.tagKeys.run,
    catalog,
    recommendations: deps.config.recommendations,
    spot: deps.config.spot,
    inferenceUtilFloor: floor,
    staticCapacity: staticCapacity({ samples: pools, schedule: poolSchedule(deps) }),
    unread: unknown.map((i) => i.instanceId),
  });
  const diagnosis = explained.diagnosis;
  if (unread.length > 0) diagnosis.unavailable = unread.map(({ source, error }) => ({ source, error }));
  // A catalog row left out for contradicting its family's order prices no saving here: say so where the fleet runs.
  diagnosis.notes.push(...droppedNotesFor(catalog, machines));
  const leftOut = leftOutNote([...costs.missing, ...unused.missing], currency);
  if (leftOut) diagnosis.notes.push(leftOut);
  return explained;
}

/**
 * The working hours node pools are judged by: `gpu.workingHours` in the teams' time zone where
 * they share one (pools are shared by teams), else in UTC.
 */
function poolSchedule(deps: Deps): TeamSchedule {
  const zones = new Set(deps.config.teams.map((t) => t.timezone));
  return { timezone: zones.size === 1 ? [...zones][0]! : 'UTC', workingHours: deps.config.gpu.workingHours };
}

function isCalendarMonth(period: Period): boolean {
  const month = monthOf(period.start);
  return month.start === period.start && month.end === period.end;
}

/** The longest period diagnosed: a quarter of five-minute samples. */
export const MAX_WASTE_DAYS = 92;
export const DEFAULT_WASTE_DAYS = 30;

/**
 * The period of a diagnosis: a month (up to today when it is this one: a month to date is
 * scaled to a month like any other stretch of days), or the N days before today (30 by default).
 */
export function wastePeriod(options: { month?: string | undefined; days?: number | undefined }, today: string): Period {
  if (options.month !== undefined && options.days !== undefined)
    throw new BurnrateError('burnrate_usage', 'give a month or a number of days, not both', 'e.g. --month 2026-11 or --days 14');
  if (options.month !== undefined) {
    const month = monthOf(`${parseMonth(options.month)}-01`);
    if (month.start >= today)
      throw new BurnrateError('burnrate_usage', `${options.month} has not begun`, 'Pick this month or an earlier one.');
    return { start: month.start, end: month.end < today ? month.end : today };
  }
  const days = options.days ?? DEFAULT_WASTE_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > MAX_WASTE_DAYS)
    throw new BurnrateError('burnrate_usage', `${days} days is not a period burnrate diagnoses`, `Give 1 to ${MAX_WASTE_DAYS} whole days.`);
  return { start: addDays(today, -days), end: today };
}

/** The rows of a diagnosis some people see: their teams, and the organisation when they asked for everything. */
export function wasteRows(diagnosis: WasteDiagnosis, teams: readonly string[] | null): TeamWaste[] {
  if (teams === null) return [...diagnosis.teams, diagnosis.organisation];
  return diagnosis.teams.filter((t) => teams.includes(t.team));
}

/** The commitments section some teams see: the organisation's coverage and what ends soon, their own always-on capacity. */
export function commitmentsOf(report: CommitmentReport, teams: readonly string[]): CommitmentReport {
  return { ...report, alwaysOn: report.alwaysOn.filter((a) => teams.includes(a.team)) };
}

/** How long a dashboard's diagnosis is reused: it reads a month of metrics, and moves slowly. */
const RECENT_TTL_MS = 3_600_000;
const recent = new WeakMap<Deps, { at: number; diagnosis: Promise<WasteDiagnosis> }>();

/**
 * The last 30 days' diagnosis for dashboards (App Home), made at most once an hour per process;
 * null without GPU metrics. A failed diagnosis is not kept: the next view tries again.
 */
export async function recentWaste(deps: Deps): Promise<WasteDiagnosis | null> {
  if (!deps.gpu) return null;
  const now = deps.clock().getTime();
  const cached = recent.get(deps);
  if (cached && now - cached.at < RECENT_TTL_MS) return cached.diagnosis;
  const diagnosis = loadWasteDiagnosis(deps, wastePeriod({}, toDay(deps.clock())));
  recent.set(deps, { at: now, diagnosis });
  diagnosis.catch(() => recent.delete(deps));
  return diagnosis;
}
