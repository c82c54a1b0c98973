import type { GpuInstance } from '../../domain/gpu-inventory.js';
import { formatMoney } from '../../domain/money.js';
import { daysBetween } from '../../domain/period.js';
import type { PriceCatalog } from '../../domain/price-catalog.js';
import { ALWAYS_ON_SHARE, EXPIRY_WARNING_DAYS, type CommitmentReport } from '../../domain/waste.js';
import type { GpuUsage } from '../recommend/gpu-usage.js';
import type { RecommendationsPolicy, SpotPolicy } from '../recommend/recommend-policy.js';
import { spotRecommendation } from '../recommend/spot.js';
import { cents } from '../review/allocate.js';
import { commitmentCoverage } from './commitment-coverage.js';
import { commitmentSaving } from './commitment-saving.js';
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
  /** Nodes of a multi-node run (recommend.ts's multiNodeInstances): never spot advice, as everywhere else. */
  multiNode?: ReadonlySet<string>;
  /** Each instance's spot saving a month as the waste diagnosis counts it: the one spot figure every surface shows. */
  spotFigures?: ReadonlyMap<string, number>;
}

/**
 * Coverage and utilisation of the commitments that cover GPU instances (as the provider measures
 * them: commitment-coverage.ts), the ones ending soon, and the on-demand GPU machines that run
 * nearly all the time, with what a commitment would save as it is paid (commitment-saving.ts)
 * beside spot's saving on the same hours: the larger one is the advice. Pure.
 */
export function commitmentReport(input: CommitmentInput): CommitmentReport {
  const used = new Map<string, number>();
  const ends = new Map<string, string>();
  for (const row of input.billed) {
    if (!row.commitmentId) continue;
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
  const coverage = commitmentCoverage(
    input.billed,
    new Map(input.instances.map((i) => [i.instance.instanceId, i.instance])),
    input.catalog,
  );
  return {
    coverage: coverage.coverage,
    coverageBasis: coverage.basis,
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
  const money = (n: number) => formatMoney(n, 'USD');
  const out: CommitmentReport['alwaysOn'] = [];
  for (const { instance, time, usage } of input.instances) {
    if (instance.lifecycle !== 'on-demand' || committed.has(instance.instanceId) || !time || input.periodSeconds <= 0) continue;
    // A commitment buys a machine's hours: a Kubernetes workload holds a share of its nodes, which
    // the node (or its pool) is committed for, never the pod; the bill shows the workload at its share.
    if (instance.kubernetes) continue;
    const runningShare = Math.min(1, time.observed / Math.max(1, instance.gpuCount) / input.periodSeconds);
    // Mostly idle is not a commitment candidate: it should be stopped (the idle cause says so).
    if (runningShare < ALWAYS_ON_SHARE || time.idle > time.observed / 2) continue;
    const price = input.catalog.priceOf(instance.provider, instance.instanceType, instance.region);
    const paid =
      price?.committedHourly === undefined
        ? null
        : commitmentSaving(
            { onDemandHourly: price.onDemandHourly, committedHourly: price.committedHourly },
            runningShare,
            input.recommendations.hoursPerMonth,
          );
    // One node of a multi-node run gets no spot figure here either: a reclaim stops the whole run.
    const multiNode = input.multiNode?.has(instance.instanceId) ?? false;
    const noSpot = multiNode ? 'spot does not suit one node of a multi-node run' : 'spot does not suit capacity that must stay up';
    // The instance's one spot figure (the diagnosis's); without one, what the catalog says of spot here.
    const spot = usage && !multiNode ? spotRecommendation(instance, usage, input.catalog, input.recommendations, input.spot) : null;
    const spotSaving = multiNode
      ? null
      : (input.spotFigures?.get(instance.instanceId) ?? (spot && !spot.blocker ? spot.monthlySaving : null));
    const commitmentWins = paid !== null && paid.saving > 0 && (spotSaving === null || paid.saving >= spotSaving);
    const arithmetic =
      paid === null || price?.committedHourly === undefined
        ? ''
        : ` (${Math.round(paid.coveredHours)} h on demand at ${money(price.onDemandHourly)}/h, ${money(paid.onDemandCost)}, against the commitment paid for all ${paid.termHours} h at ${money(price.committedHourly)}/h, ${money(paid.commitmentCost)})`;
    const advice = commitmentWins
      ? `A 1-year commitment saves ${money(paid.saving)} a month${arithmetic}${spotSaving !== null ? `, more than spot's ${money(spotSaving)}` : `; ${noSpot}`}.`
      : spotSaving !== null
        ? `Spot saves more (${money(spotSaving)} a month): it is checkpointed training, ready for spot${paid === null ? '' : `; a 1-year commitment would save ${money(paid.saving)}${arithmetic}`}.`
        : paid !== null
          ? `A 1-year commitment would cost more than it saves (${money(paid.saving)} a month${arithmetic}): it runs too few hours for one.`
          : `No committed rate in the catalog for ${instance.instanceType} in ${instance.region}: ask the provider for a quote${multiNode ? ` (${noSpot})` : ''}.`;
    out.push({
      instanceId: instance.instanceId,
      name: instance.name,
      team: instance.team,
      instanceType: instance.instanceType,
      runningShare,
      monthly: cents((cost.get(instance.instanceId) ?? 0) * input.monthFactor),
      commitmentSaving: paid === null ? null : paid.saving,
      spotSaving,
      advice,
    });
  }
  return out.sort((a, b) => (b.commitmentSaving ?? 0) - (a.commitmentSaving ?? 0));
}
