import type { PriceCatalog } from '../../domain/price-catalog.js';
import type { GpuInstance } from '../../domain/gpu-inventory.js';
import { formatMoney } from '../../domain/money.js';
import { recommendationId, type Recommendation } from '../../domain/recommendation.js';
import { checkpointingOf, formatMinutes, spotReadiness } from './checkpointing.js';
import type { GpuUsage } from './gpu-usage.js';
import type { RecommendationsPolicy, SpotPolicy } from './recommend-policy.js';
import { hoursText } from './right-size.js';
import { monthlyHours, round2 } from './saving.js';
import type { SpotFigure } from './spot-figures.js';

/**
 * Spot: a training or sweep workload on on-demand capacity that declares checkpointing
 * (`checkpoint=true`) can survive a reclaim, so the catalog's spot price of the same type and
 * region is what it could pay. Null for anything else, or where the catalog has no spot price.
 * Whether the declared interval is short enough is the approval's readiness check; the evidence
 * says so up front when it is not.
 *
 * `billed`: the instance's one spot figure (src/checks/recommend/spot-figures.ts), which the waste
 * report and the review show too; the saving is that figure. Without it (the waste diagnosis asks
 * for the catalog's terms, from which it makes that figure) the saving is the catalog's discount
 * over the hours it runs a month, net of rework.
 */
export function spotRecommendation(
  instance: GpuInstance,
  usage: GpuUsage,
  catalog: PriceCatalog,
  policy: RecommendationsPolicy,
  spot: SpotPolicy,
  billed?: SpotFigure,
): Recommendation | null {
  if (instance.lifecycle !== 'on-demand') return null;
  if (instance.workload !== 'training' && instance.workload !== 'sweep') return null;
  const checkpointing = checkpointingOf(instance.tags);
  if (!checkpointing.declared) return null;
  const price = catalog.priceOf(instance.provider, instance.instanceType, instance.region);
  if (!price || price.spotHourly === null || price.spotHourly >= price.onDemandHourly) return null;
  if (usage.runningHours <= 0) return null;

  const hours = monthlyHours(usage, policy.hoursPerMonth);
  // What reclaims cost: each redoes half a checkpoint interval (the declared one, else the longest
  // allowed) plus a restart, at the spot price, for the share of the month it runs.
  const interval = checkpointing.intervalMinutes;
  const reclaims = spot.interruptionsPerMonth * (hours / policy.hoursPerMonth);
  const reworkHours = (reclaims * ((interval ?? spot.maxCheckpointMinutes) / 2 + spot.restartMinutes)) / 60;
  const rework = reworkHours * price.spotHourly;
  const saving = billed ? billed.monthly : round2(Math.max(0, (price.onDemandHourly - price.spotHourly) * hours - rework));
  if (saving <= 0) return null;
  const label = instance.name ?? instance.instanceId;
  const money = (n: number) => formatMoney(n, 'USD');
  const discount = Math.round((1 - price.spotHourly / price.onDemandHourly) * 100);
  const evidence = [
    `${label} runs ${instance.workload === 'sweep' ? 'a sweep' : 'training'} on on-demand ${instance.instanceType} in ${instance.region} and declares checkpointing (checkpoint=true${checkpointing.intervalText ? `, every ${checkpointing.intervalText}` : ''}), so a spot reclaim costs a restart from the last checkpoint, not the run.`,
    `Spot ${instance.instanceType} in ${instance.region}: ${money(price.spotHourly)}/h against ${money(price.onDemandHourly)}/h on demand (${discount}% less; the median of the region's zone prices).`,
    billed
      ? `It ran ${hoursText(usage.runningHours)} of ${hoursText(usage.windowHours)} over ${billed.window}. On what the bill charged it for the hours it worked (idle hours, which stopping saves, and any right-size are counted apart), that discount net of work redone after about ${Math.round(reclaims * 10) / 10} reclaims a month (half a checkpoint interval and a ${formatMinutes(spot.restartMinutes)} restart each; spot.interruptionsPerMonth) saves ${money(saving)} a month: the same figure the waste report gives for those days.`
      : `It ran ${hoursText(usage.runningHours)} of the last ${hoursText(usage.windowHours)}: about ${Math.round(hours)} hours a month, so spot saves ${money(saving)} a month, net of ${money(round2(rework))} of work redone after about ${Math.round(reclaims * 10) / 10} reclaims a month (half a checkpoint interval and a ${formatMinutes(spot.restartMinutes)} restart each; spot.interruptionsPerMonth).`,
  ];
  if (interval === null)
    evidence.push(`Approval needs a checkpoint-interval tag (e.g. 15m) of at most ${formatMinutes(spot.maxCheckpointMinutes)}.`);
  else if (interval > spot.maxCheckpointMinutes)
    evidence.push(
      `Its checkpoint interval (${checkpointing.intervalText}) is longer than the ${formatMinutes(spot.maxCheckpointMinutes)} allowed on spot: checkpoint more often before approving.`,
    );
  if (instance.protected) evidence.push(`It is tagged burnrate:protect=true: burnrate will not change it until the tag is removed.`);
  if (saving > spot.secondApproverAbove)
    evidence.push(`A saving above ${money(spot.secondApproverAbove)} a month needs two different approvers.`);
  const readiness = spotReadiness(instance, spot.maxCheckpointMinutes, label);
  return {
    ...(readiness.ready ? {} : { blocker: `${readiness.message} ${readiness.hint}` }),
    id: recommendationId('spot', instance.instanceId),
    kind: 'spot',
    instanceId: instance.instanceId,
    name: instance.name,
    team: instance.team,
    provider: instance.provider,
    region: instance.region,
    current: { instanceType: instance.instanceType, lifecycle: 'on-demand', hourly: price.onDemandHourly },
    proposed: { instanceType: instance.instanceType, lifecycle: 'spot', hourly: price.spotHourly },
    hoursPerMonth: round2(hours),
    monthlySaving: saving,
    evidence,
    confidence: usage.runningHours >= 72 ? (interval !== null ? 'high' : 'medium') : 'low',
  };
}
