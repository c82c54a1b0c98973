import type { HourAmount } from '../checks/anomalies/hourly-runaway.js';
import { HOURLY_PAST_DAYS } from '../checks/anomalies/hourly-runaway.js';
import type { Deps } from '../deps.js';
import { loadGpuSnapshot } from './gpu-snapshot.js';

const HOUR = 3600;

/** A team's GPU machines' cost per hour, and each machine's. */
export interface TeamHours {
  /** Every hour of the window, 0 where nothing ran; USD, at each machine's hourly rate. */
  total: HourAmount[];
  /** Machine ("name (id)", as the bill names a resource) -> hour -> its cost that hour. */
  byResource: Map<string, Map<number, number>>;
}

/**
 * The GPU machines' cost per hour and team over the week and a day before the latest complete hour
 * at `now`: a machine costs its hourly rate (the bill's where it has one) in each hour its GPUs
 * reported a sample in, whatever their use, to the team it is handed to or tagged with. Read
 * through the one GPU snapshot the idle check reads, at an hourly step. Empty without GPU metrics.
 */
export async function loadHourlyGpuSpend(deps: Deps, teams: readonly string[], now: Date): Promise<Map<string, TeamHours>> {
  const out = new Map<string, TeamHours>();
  if (!deps.gpu || teams.length === 0) return out;
  const end = Math.floor(now.getTime() / 1000 / HOUR) * HOUR;
  const start = end - (HOURLY_PAST_DAYS + 1) * 24 * HOUR;
  const snapshot = await loadGpuSnapshot(deps, { window: { start, end, stepSeconds: HOUR } });
  const hoursOf = new Map<string, Set<number>>();
  // A machine's team as its series are attributed: an untagged Kubernetes node's is its pods' namespace's.
  const teamOf = new Map<string, string>();
  for (const { series, instance } of snapshot.series) {
    teamOf.set(instance.instanceId, instance.team);
    const hours = hoursOf.get(instance.instanceId) ?? new Set<number>();
    series.times.forEach((t, i) => {
      if (!Number.isNaN(series.util[i]!) && t >= start && t < end) hours.add(Math.floor(t / HOUR) * HOUR);
    });
    hoursOf.set(instance.instanceId, hours);
  }
  for (const team of teams) out.set(team, { total: [], byResource: new Map() });
  for (const instance of snapshot.instances) {
    const team = out.get(snapshot.handedTo.get(instance.instanceId) ?? teamOf.get(instance.instanceId) ?? instance.team);
    const hours = hoursOf.get(instance.instanceId);
    // Prepaid capacity costs the same whether it runs or not: running it is no rise in spend.
    if (!team || !hours?.size || instance.prepaid) continue;
    const key = instance.name ? `${instance.name} (${instance.instanceId})` : instance.instanceId;
    team.byResource.set(key, new Map([...hours].map((h) => [h, instance.hourlyPrice])));
  }
  for (const team of out.values())
    for (let hour = start; hour < end; hour += HOUR)
      team.total.push({ hour, amount: [...team.byResource.values()].reduce((sum, m) => sum + (m.get(hour) ?? 0), 0) });
  return out;
}
