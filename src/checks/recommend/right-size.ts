import type { GpuPrice, PriceCatalog } from '../../domain/price-catalog.js';
import type { GpuInstance } from '../../domain/gpu-inventory.js';
import { architectureOf, canMoveTo, interconnectOf, tensorTflopsOf } from '../../domain/gpu-architecture.js';
import { formatMoney } from '../../domain/money.js';
import { recommendationId, type Recommendation } from '../../domain/recommendation.js';
import type { GpuUsage } from './gpu-usage.js';
import { hostNeeds, type HostNeeds } from '../../domain/host-peaks.js';
import type { RecommendationsPolicy } from './recommend-policy.js';
import { monthlyHours, round2 } from './saving.js';

/**
 * Right-size: the instance's GPUs ran far below what they offer — the memory high-water mark
 * under `maxMemoryShare` of its GPU memory and the mean utilisation under `maxMeanUtil` — so the
 * cheapest type of the same provider and region that still holds the high-water mark (with
 * headroom) would do the same work. The target must be able to run the same work: a GPU of the
 * same or a newer architecture (never an older one, which may lack bf16 or fp8, never a retired
 * family), and for multi-GPU training or sweeps the same number of GPUs linked the same way
 * (NVLink or PCIe): fewer GPUs or a slower link changes the job, not just its price. The host must
 * fit as well: at least the vCPUs and memory the instance's host used at the 95th percentile, where
 * a source measures them (node_exporter, CloudWatch). Null when the evidence is missing or nothing
 * cheaper fits.
 */
export function rightSizeRecommendation(
  instance: GpuInstance,
  usage: GpuUsage,
  catalog: PriceCatalog,
  policy: RecommendationsPolicy,
): Recommendation | null {
  const rule = policy.rightSize;
  const capacity = instance.gpuMemoryGiB;
  const highWater = usage.memoryHighWaterGiB;
  if (capacity === null || highWater === null || usage.meanUtil === null) return null;
  if (usage.runningHours < rule.minRunningHours) return null;
  // Under a GiB of memory ever used means no job ran: that is the idle check's finding (stop it), not a smaller type.
  if (highWater < NO_WORK_GIB) return null;
  if (highWater > capacity * rule.maxMemoryShare || usage.meanUtil > rule.maxMeanUtil) return null;

  const current = catalog.priceOf(instance.provider, instance.instanceType, instance.region);
  if (!current) return null;
  const currentHourly = hourlyFor(current, instance.lifecycle) ?? instance.hourlyPrice;
  const needed = highWater * rule.headroom;
  // The busiest moments must fit too: at the 95th percentile of utilisation, the work of these GPUs
  // would keep the target's at most maxTargetUtil busy (a fifth of the compute would not).
  const fitsCompute = (t: GpuPrice) => {
    const ratio = throughputRatio(instance, t);
    return ratio !== null && (usage.p95Util ?? 100) * ratio <= rule.maxTargetUtil;
  };
  const host = hostNeeds(usage.host, current);
  const fitsHost = (t: GpuPrice) =>
    (host.vcpus === null || t.vcpus >= host.vcpus) && (host.memoryGiB === null || t.memoryGiB >= host.memoryGiB);
  const multiGpuTraining = instance.gpuCount > 1 && (instance.workload === 'training' || instance.workload === 'sweep');
  // typesIn is cheapest first: the first type that holds the job and costs less is the answer.
  const target = catalog
    .typesIn(instance.provider, instance.region)
    .find(
      (t) =>
        t.instanceType !== instance.instanceType &&
        t.gpuMemoryGiB !== null &&
        t.gpuMemoryGiB >= needed &&
        canMoveTo(instance.gpuModel, t.gpuModel) &&
        (!multiGpuTraining ||
          (t.gpuCount === instance.gpuCount && interconnectOf(t.instanceType) === interconnectOf(instance.instanceType))) &&
        (hourlyFor(t, instance.lifecycle) ?? Infinity) < currentHourly &&
        fitsCompute(t) &&
        fitsHost(t),
    );
  if (!target) return null;
  const targetHourly = hourlyFor(target, instance.lifecycle)!;

  const hours = monthlyHours(usage, policy.hoursPerMonth);
  const label = instance.name ?? instance.instanceId;
  const targetUtil = Math.round((usage.p95Util ?? 100) * throughputRatio(instance, target)!);
  const money = (n: number) => formatMoney(n, 'USD');
  const hostLines = hostEvidence(host, current, target);
  return {
    id: recommendationId('right-size', instance.instanceId),
    kind: 'right-size',
    instanceId: instance.instanceId,
    name: instance.name,
    team: instance.team,
    provider: instance.provider,
    region: instance.region,
    current: { instanceType: instance.instanceType, lifecycle: instance.lifecycle, hourly: currentHourly },
    proposed: { instanceType: target.instanceType, lifecycle: instance.lifecycle, hourly: targetHourly },
    hoursPerMonth: round2(hours),
    monthlySaving: round2((currentHourly - targetHourly) * hours),
    evidence: [
      `${label} used at most ${gib(highWater)} of its ${gib(capacity)} GPU memory (${percent(highWater / capacity)}) and ${Math.round(usage.meanUtil)}% GPU utilisation on average over ${hoursText(usage.runningHours)} running in the last ${hoursText(usage.windowHours)}.`,
      `${target.instanceType} (${target.gpuCount}× ${target.gpuModel}, ${gib(target.gpuMemoryGiB!)}) is the cheapest ${instance.provider} type in ${instance.region} with room for ${gib(needed)} (the high-water mark + ${percent(rule.headroom - 1)} headroom) on ${sameOrNewer(instance.gpuModel, target.gpuModel)}${multiGpuTraining ? `, keeping ${instance.gpuCount} GPUs on ${interconnectOf(instance.instanceType)} for multi-GPU training` : ''}: ${money(targetHourly)}/h against ${money(currentHourly)}/h for ${instance.instanceType}.`,
      `Its GPUs were at most ${Math.round(usage.p95Util ?? 0)}% busy 95% of the time; ${target.instanceType} has ${percent(1 / throughputRatio(instance, target)!)} of their tensor throughput, so the same work would keep it about ${targetUtil}% busy (at most ${rule.maxTargetUtil}% allowed).`,
      `At ${Math.round(hours)} hours a month (its share of time running), that saves ${money(round2((currentHourly - targetHourly) * hours))} a month.`,
      ...hostLines.lines,
    ],
    // Medium at best: usage can change; low while the target is smaller than a host figure nobody measured.
    confidence: !hostLines.unmeasuredShortfall && usage.runningHours >= 72 ? 'medium' : 'low',
  };
}

/**
 * What the evidence says of the host: the measured peaks against the target's size, and a warning
 * where the target is smaller than the current type in a figure no source measured.
 */
function hostEvidence(needs: HostNeeds, current: GpuPrice, target: GpuPrice): { lines: string[]; unmeasuredShortfall: boolean } {
  const lines: string[] = [];
  const measured = [
    needs.vcpus === null ? null : `${round1(needs.vcpus)} of its ${current.vcpus} vCPUs`,
    needs.memoryGiB === null ? null : `${gib(needs.memoryGiB)} of its ${current.memoryGiB} GiB memory`,
  ].filter((part) => part !== null);
  if (measured.length > 0)
    lines.push(
      `Its host used ${measured.join(' and ')} 95% of the time; ${target.instanceType} has ${target.vcpus} vCPUs and ${target.memoryGiB} GiB.`,
    );
  const unmeasured = [
    needs.vcpus === null && target.vcpus < current.vcpus ? `${target.vcpus} vCPUs against ${current.vcpus}` : null,
    needs.memoryGiB === null && target.memoryGiB < current.memoryGiB
      ? `${target.memoryGiB} GiB of memory against ${current.memoryGiB} GiB`
      : null,
  ].filter((part) => part !== null);
  if (unmeasured.length > 0)
    lines.push(
      `${target.instanceType} has ${unmeasured.join(' and ')} now, and no source measures this host's ${needs.vcpus === null && needs.memoryGiB === null ? 'CPU and memory' : needs.vcpus === null ? 'CPU' : 'memory'} (node_exporter or the CloudWatch agent would): check their peak use before the move.`,
    );
  return { lines, unmeasuredShortfall: unmeasured.length > 0 };
}

/** "the same architecture (Ada Lovelace)" or "a newer architecture (Hopper, after Ampere)". */
function sameOrNewer(from: string, to: string): string {
  const source = architectureOf(from)!;
  const target = architectureOf(to)!;
  return source.name === target.name
    ? `the same architecture (${target.name})`
    : `a newer architecture (${target.name}, after ${source.name})`;
}

/** The instance's tensor throughput over the target's (both whole instances); null when a model is not in the table. */
function throughputRatio(instance: GpuInstance, target: GpuPrice): number | null {
  const from = tensorTflopsOf(instance.gpuModel);
  const to = tensorTflopsOf(target.gpuModel);
  return from === null || to === null ? null : (from * instance.gpuCount) / (to * target.gpuCount);
}

function hourlyFor(price: GpuPrice, lifecycle: GpuInstance['lifecycle']): number | null {
  return lifecycle === 'spot' ? price.spotHourly : price.onDemandHourly;
}

const NO_WORK_GIB = 1;
const round1 = (n: number) => Math.round(n * 10) / 10;
const gib = (n: number) => `${Math.round(n * 10) / 10} GiB`;
const percent = (fraction: number) => `${Math.round(fraction * 100)}%`;
export const hoursText = (hours: number) => (hours >= 48 && hours % 24 === 0 ? `${hours / 24} days` : `${Math.round(hours * 10) / 10} h`);
