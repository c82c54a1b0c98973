import type { GpuInstance } from '../../domain/gpu-inventory.js';
import { formatMoney } from '../../domain/money.js';
import { daysBetween } from '../../domain/period.js';
import type { PriceCatalog } from '../../domain/price-catalog.js';
import { ALWAYS_ON_SHARE, EXPIRY_WARNING_DAYS, type CommitmentReport } from '../../domain/waste.js';
import type { GpuUsage } from '../recommend/gpu-usage.js';
import type { RecommendationsPolicy, SpotPolicy } from '../recommend/recommend-policy.js';
import { spotRecommendation } from '../recommend/spot.js';
import { cents } from '../review/allocate.js';
import type { GpuTime } from './gpu-time.js';

export interface CommitmentInput {
  /** The bill's rows of GPU instances: cost, hours and the commitment that covered them. */
  billed: readonly { resourceId: string; cost: number; hours: number | null; commitmentId: string | null; commitmentEnd: string | null }[];
  unused: readonly { commitmentId: string; amount: number; commitmentEnd: string | null }[];
  instances: readonly { instance: GpuInstance; time: GpuTime | null; usage: GpuUsage | null }[];
  /** Seconds of the period the metrics cover. */
  periodSeconds: number;
  monthFactor: number;
  today: string;
  catalog: PriceCatalog;
  recommendations: RecommendationsPolicy;
  spot: SpotPolicy;
}

/**
 * Coverage and utilisation of the commitments that cover GPU instances, the ones ending soon, and
 * the on-demand GPU capacity that runs nearly all the time (where a commitment, not spot, is the
 * saving: always-on capacity is usually serving, which spot reclaims would interrupt). Pure.
 */
export function commitmentReport(input: CommitmentInput): CommitmentReport {
  const used = new Map<string, number>();
  const ends = new Map<string, string>();
  let coveredHours = 0;
  let allHours = 0;
  for (const row of input.billed) {
    allHours += row.hours ?? 0;
    if (!row.commitmentId) continue;
    coveredHours += row.hours ?? 0;
    used.set(row.commitmentId, (used.get(row.commitmentId) ?? 0) + row.cost);
    if (row.commitmentEnd) ends.set(row.commitmentId, row.commitmentEnd);
  }
  const unused = new Map<string, number>();
  for (const u of input.unused) {
    if (!used.has(u.commitmentId)) continue; // a commitment that covers no GPU instance is not this report's
    unused.set(u.commitmentId, (unused.get(u.commitmentId) ?? 0) + u.amount);
    if (u.commitmentEnd) ends.set(u.commitmentId, u.commitmentEnd);
  }
  const commitments = [...used].map(([id, usedCost]) => {
    const unusedCost = unused.get(id) ?? 0;
    const end = ends.get(id)?.slice(0, 10) ?? null;
    return {
      id,
      usedMonthly: cents(usedCost * input.monthFactor),
      unusedMonthly: cents(unusedCost * input.monthFactor),
      utilisation: usedCost + unusedCost > 0 ? usedCost / (usedCost + unusedCost) : 0,
      endsOn: end,
      daysLeft: end === null ? null : daysBetween(input.today, end),
    };
  });
  const usedTotal = [...used.values()].reduce((s, n) => s + n, 0);
  const unusedTotal = [...unused.values()].reduce((s, n) => s + n, 0);
  return {
    coverage: allHours > 0 ? coveredHours / allHours : null,
    utilisation: usedTotal + unusedTotal > 0 ? usedTotal / (usedTotal + unusedTotal) : null,
    commitments,
    expiring: commitments.filter((c) => c.daysLeft !== null && c.daysLeft >= 0 && c.daysLeft <= EXPIRY_WARNING_DAYS).map((c) => c.id),
    alwaysOn: alwaysOn(input),
  };
}

function alwaysOn(input: CommitmentInput): CommitmentReport['alwaysOn'] {
  const cost = new Map<string, number>();
  const committed = new Set<string>();
  for (const row of input.billed) {
    cost.set(row.resourceId, (cost.get(row.resourceId) ?? 0) + row.cost);
    if (row.commitmentId) committed.add(row.resourceId);
  }
  const out: CommitmentReport['alwaysOn'] = [];
  for (const { instance, time, usage } of input.instances) {
    if (instance.lifecycle !== 'on-demand' || committed.has(instance.instanceId) || !time || input.periodSeconds <= 0) continue;
    const runningShare = Math.min(1, time.observed / Math.max(1, instance.gpuCount) / input.periodSeconds);
    // Mostly idle is not a commitment candidate: it should be stopped (the idle cause says so).
    if (runningShare < ALWAYS_ON_SHARE || time.idle > time.observed / 2) continue;
    const price = input.catalog.priceOf(instance.provider, instance.instanceType, instance.region);
    const hours = runningShare * input.recommendations.hoursPerMonth;
    const commitmentSaving = price?.committedHourly === undefined ? null : cents((price.onDemandHourly - price.committedHourly) * hours);
    const spot = usage ? spotRecommendation(instance, usage, input.catalog, input.recommendations, input.spot) : null;
    const spotSaving = spot && !spot.blocker ? spot.monthlySaving : null;
    const money = (n: number) => formatMoney(n, 'USD');
    const advice =
      spotSaving !== null && (commitmentSaving === null || spotSaving > commitmentSaving)
        ? `Spot saves more (${money(spotSaving)} a month): it is checkpointed training, ready for spot.`
        : commitmentSaving !== null
          ? `A 1-year commitment saves ${money(commitmentSaving)} a month at the catalog's committed rate${spotSaving !== null ? `, more than spot's ${money(spotSaving)}` : '; spot does not suit capacity that must stay up'}.`
          : `No committed rate in the catalog for ${instance.instanceType} in ${instance.region}: ask the provider for a quote.`;
    out.push({
      instanceId: instance.instanceId,
      name: instance.name,
      team: instance.team,
      instanceType: instance.instanceType,
      runningShare,
      monthly: cents((cost.get(instance.instanceId) ?? 0) * input.monthFactor),
      commitmentSaving,
      spotSaving,
      advice,
    });
  }
  return out.sort((a, b) => (b.commitmentSaving ?? 0) - (a.commitmentSaving ?? 0));
}
