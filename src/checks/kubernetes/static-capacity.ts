import { minutesOfDay, type TeamSchedule } from '../idle/team-schedule.js';
import { wallClock } from '../../domain/wall-clock.js';
import type { PoolManager, PoolSample, StaticPool } from '../../domain/kube-usage.js';
import { cents } from '../review/allocate.js';
import { formatMoney } from '../../domain/money.js';
import { NO_POOL } from './pool-samples.js';

export interface StaticCapacityInput {
  samples: readonly PoolSample[];
  /** The working hours the pool's users keep: outside them, idle capacity should be gone. */
  schedule: TeamSchedule;
  /** Hours of samples a pool needs before it is judged (a day). */
  minHours?: number;
  /** Share of GPU-hours unrequested from which a pool is reported. */
  minIdleShare?: number;
}

const HOURS_PER_MONTH = (365.25 / 12) * 24;

/**
 * Pools that never went to zero nodes over the samples although a large share of their GPUs was
 * requested by no pod: the GPUs were paid for and waited. What scaling down outside working hours
 * would save is the unrequested GPUs' share of the pool's price over the off-hours samples, scaled
 * to a month. Most idle first. Pure.
 */
export function staticCapacity(input: StaticCapacityInput): StaticPool[] {
  const minHours = input.minHours ?? 24;
  const minIdleShare = input.minIdleShare ?? 0.25;
  const byPool = new Map<string, PoolSample[]>();
  for (const s of input.samples) {
    const key = `${s.cluster}|${s.pool}`;
    byPool.set(key, [...(byPool.get(key) ?? []), s]);
  }
  const found: StaticPool[] = [];
  for (const samples of byPool.values()) {
    const counted = samples.filter((s) => s.hours > 0);
    const hours = counted.reduce((sum, s) => sum + s.hours, 0);
    if (hours < minHours) continue;
    const minNodes = Math.min(...samples.map((s) => s.nodes));
    const maxNodes = Math.max(...samples.map((s) => s.nodes));
    const gpuHours = counted.reduce((sum, s) => sum + s.gpus * s.hours, 0);
    const idleGpuHours = counted.reduce((sum, s) => sum + (s.gpus - s.requested) * s.hours, 0);
    if (minNodes === 0 || gpuHours === 0 || idleGpuHours / gpuHours < minIdleShare) continue;
    const offHours = counted.filter((s) => !working(s.at, input.schedule));
    const offHoursCost = offHours.reduce((sum, s) => sum + (s.gpus > 0 ? ((s.gpus - s.requested) / s.gpus) * s.hourly * s.hours : 0), 0);
    const { cluster, pool, manager } = samples[0]!;
    const { start, end } = input.schedule.workingHours;
    found.push({
      cluster,
      pool,
      manager,
      minNodes,
      maxNodes,
      gpuHours: round1(gpuHours),
      idleGpuHours: round1(idleGpuHours),
      offHoursMonthly: cents((offHoursCost / hours) * HOURS_PER_MONTH),
      setting: settingFor(pool, manager),
      evidence: [
        `${pool} in ${cluster} held ${minNodes === maxNodes ? minNodes : `${minNodes}–${maxNodes}`} node${maxNodes === 1 ? '' : 's'} in every sample over ${round1(hours)} h: it never scaled to zero.`,
        `${round1(idleGpuHours)} of its ${round1(gpuHours)} GPU-hours (${Math.round((idleGpuHours / gpuHours) * 100)}%) were requested by no pod.`,
        `Outside working hours (${start}–${end} ${input.schedule.timezone}, working days) its unrequested GPUs cost ${money(offHoursCost)} at list price over the samples, ${money((offHoursCost / hours) * HOURS_PER_MONTH)} a month.`,
      ],
    });
  }
  return found.sort((a, b) => b.offHoursMonthly - a.offHoursMonthly || b.idleGpuHours - a.idleGpuHours);
}

/** The change that lets the pool shrink when nothing needs its GPUs. */
function settingFor(pool: string, manager: PoolManager | null): string {
  if (pool === NO_POOL)
    return 'These nodes belong to no autoscaled pool: move their workloads to one that can scale to zero, and drain them.';
  switch (manager) {
    case 'karpenter':
      return `Karpenter NodePool ${pool}: set spec.disruption.consolidationPolicy: WhenEmptyOrUnderutilized with a consolidateAfter (e.g. 30m), and no spec.limits or static replicas holding nodes.`;
    case 'eks':
      return `EKS node group ${pool}: set its scaling config minSize to 0 and let the cluster autoscaler scale it down (scale-down-unneeded-time).`;
    case 'gke':
      return `GKE node pool ${pool}: enable autoscaling with --total-min-nodes=0 (or --min-nodes=0).`;
    case 'aks':
      return `AKS node pool ${pool}: enable the cluster autoscaler with --min-count 0 (user pools only).`;
    default:
      return `Node pool ${pool}: let its autoscaler scale it to zero nodes (minimum size 0).`;
  }
}

function working(at: Date, schedule: TeamSchedule): boolean {
  const clock = wallClock(at, schedule.timezone);
  const weekday = new Date(`${clock.day}T00:00:00Z`).getUTCDay();
  const { start, end, days } = schedule.workingHours;
  return days.includes(weekday) && clock.minutes >= minutesOfDay(start) && clock.minutes < minutesOfDay(end);
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const money = (n: number) => formatMoney(cents(n), 'USD');
