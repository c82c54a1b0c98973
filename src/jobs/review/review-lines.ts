import { loadPriceCatalog } from '../../catalog/price-catalog.js';
import { spotSaving } from '../../checks/review/spot-saving.js';
import type { Deps } from '../../deps.js';
import type { GpuInstance } from '../../domain/gpu-inventory.js';
import { monthOf } from '../../domain/period.js';
import type { Recommendation } from '../../domain/recommendation.js';
import type { ReviewLine } from '../../domain/review.js';
import { recommendationsFor, type CostLineRef } from '../../snapshots/recommendations-for.js';
import { loadCostLines } from '../../snapshots/team-breakdowns.js';
import { teamCurrency } from '../../snapshots/fx-rates.js';
import type { FxRates } from '../../domain/fx.js';

/**
 * A team's top cost lines of a month, with what the inventory knows of each instance (its name,
 * type and workload), for on-demand GPU instances the catalog's saving on spot, and the right-size
 * and spot recommendations for the instance each line bills.
 */
export async function loadReviewLines(deps: Deps, team: string, month: string, fx?: FxRates): Promise<ReviewLine[]> {
  const [lines, inventory] = await Promise.all([
    loadCostLines(deps, monthOf(`${month}-01`), team, { currency: teamCurrency(deps.config, team), fx }, deps.config.review.lines),
    deps.gpu ? deps.gpu.inventory() : Promise.resolve([]),
  ]);
  const instances = new Map<string, GpuInstance>(inventory.map((i) => [i.instanceId, i]));
  const catalog = loadPriceCatalog();
  const recommended = await linesRecommendations(deps, team, lines);
  return lines.map((line, index) => {
    const instance = line.resourceId ? instances.get(line.resourceId) : undefined;
    const cost = Math.round(line.effective * 100) / 100;
    return {
      key: line.key,
      // The inventory's name, else the bill's with the id beside it, else the id (or the service).
      label: instance?.name ?? (line.resourceName && line.resourceId ? `${line.resourceName} (${line.resourceId})` : line.key),
      resourceId: line.resourceId,
      service: line.service,
      category: line.category,
      pricing: line.pricing,
      cost,
      instanceType: instance?.instanceType ?? null,
      workload: instance?.workload ?? null,
      spotSaving: spotSaving(cost, line.pricing, instance, catalog),
      recommendations: recommended[index]!.filter((r) => r.kind !== 'spot' || spotSavesOn(line.pricing)),
    };
  });
}

/**
 * Whether moving a line to spot can save anything: not when it is billed on spot already (Dynamic),
 * nor under a commitment (a Savings Plan or reservation is paid whether the instance runs or not).
 */
function spotSavesOn(pricing: string | null): boolean {
  return pricing !== 'Committed' && pricing !== 'Dynamic';
}

/**
 * Each line's recommendations; none when the metrics cannot be read now. The review is posted once
 * a month: an unreachable metrics source costs it the recommendations (logged), not the whole thread.
 */
async function linesRecommendations(deps: Deps, team: string, lines: readonly CostLineRef[]): Promise<Recommendation[][]> {
  try {
    return (await recommendationsFor(deps, lines)).map((list) => list.map((r) => r.recommendation));
  } catch (error) {
    deps.log.warn({ team, err: (error as Error).message }, 'review: recommendations unavailable for this month');
    return lines.map(() => []);
  }
}
