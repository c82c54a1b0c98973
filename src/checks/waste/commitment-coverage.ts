import type { GpuInstance } from '../../domain/gpu-inventory.js';
import type { PriceCatalog } from '../../domain/price-catalog.js';
import { cents } from '../review/allocate.js';

export interface CoverageRow {
  resourceId: string;
  cost: number;
  hours: number | null;
  commitmentId: string | null;
}

export interface CommitmentCoverage {
  /** Covered ÷ (covered + eligible on demand); null without eligible spend. */
  coverage: number | null;
  /** The covered usage at on-demand rates, over the period. */
  coveredOnDemand: number;
  /** What the GPU instances a commitment could have covered paid on demand, over the period. */
  onDemand: number;
  /** How the figure is measured, in words, for every reader. */
  basis: string;
}

const PROVIDER_NAMES: Record<GpuInstance['provider'], string> = { aws: 'AWS', gcp: 'GCP', azure: 'Azure' };

/**
 * Commitment coverage as the providers measure it (AWS Cost Explorer's Savings Plans coverage,
 * GCP's CUD coverage): the covered usage at its on-demand equivalent ÷ (that + the on-demand spend
 * a commitment could have covered), not instance-hours: an hour of p5 and an hour of g5 are not the
 * same coverage. The on-demand equivalent of covered hours is the catalog's public on-demand rate ×
 * the hours the bill counts (AWS: "at the public On-Demand rate"); a covered row without hours or
 * without a catalog price counts at its effective cost, which understates it, and the basis says
 * so. Eligible: on-demand (not spot) instances of the providers whose commitments appear here (an
 * AWS Savings Plan cannot cover a GCP machine); every provider's when no commitment does. Pure.
 */
export function commitmentCoverage(
  rows: readonly CoverageRow[],
  instances: ReadonlyMap<string, GpuInstance>,
  catalog: PriceCatalog,
): CommitmentCoverage {
  const committedProviders = new Set(
    rows.flatMap((r) => {
      const provider = r.commitmentId ? instances.get(r.resourceId)?.provider : undefined;
      return provider ? [provider] : [];
    }),
  );
  let coveredOnDemand = 0;
  let onDemand = 0;
  let atEffective = 0;
  for (const row of rows) {
    const instance = instances.get(row.resourceId);
    if (!instance) continue;
    if (row.commitmentId) {
      const price = instance.kubernetes ? undefined : catalog.priceOf(instance.provider, instance.instanceType, instance.region);
      if (price && row.hours !== null && row.hours > 0) coveredOnDemand += price.onDemandHourly * row.hours;
      else {
        coveredOnDemand += row.cost;
        atEffective += 1;
      }
      continue;
    }
    if (instance.lifecycle !== 'on-demand') continue;
    if (committedProviders.size > 0 && !committedProviders.has(instance.provider)) continue;
    onDemand += row.cost;
  }
  const providers = [...(committedProviders.size > 0 ? committedProviders : new Set([...instances.values()].map((i) => i.provider)))]
    .sort()
    .map((p) => PROVIDER_NAMES[p])
    .join(' and ');
  const total = coveredOnDemand + onDemand;
  return {
    coverage: total > 0 ? coveredOnDemand / total : null,
    coveredOnDemand: cents(coveredOnDemand),
    onDemand: cents(onDemand),
    basis:
      `covered usage at on-demand rates ÷ (that + on-demand spend on ${providers} GPU instances), as the provider measures coverage` +
      (atEffective > 0
        ? `; ${atEffective} covered line${atEffective === 1 ? '' : 's'} without hours or a catalog price counted at effective cost`
        : ''),
  };
}
