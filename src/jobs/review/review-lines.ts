import { spotSaving } from '../../checks/review/spot-saving.js';
import type { Deps } from '../../deps.js';
import type { GpuInstance } from '../../domain/gpu-inventory.js';
import { monthOf } from '../../domain/period.js';
import type { Recommendation } from '../../domain/recommendation.js';
import type { ReviewLine } from '../../domain/review.js';
import { recommendationsFor, type CostLineRef } from '../../snapshots/recommendations-for.js';
import { loadCostLines } from '../../snapshots/team-breakdowns.js';
import { loadFxRates, teamCurrency } from '../../snapshots/fx-rates.js';
import { convert, type FxRates } from '../../domain/fx.js';
import type { WasteDiagnosis } from '../../domain/waste.js';

/**
 * A team's top cost lines of a month, with what the inventory knows of each instance (its name,
 * type and workload), the month's spot saving as the waste diagnosis puts it (one figure for both),
 * and the right-size and spot recommendations for the instance each line bills.
 */
export async function loadReviewLines(
  deps: Deps,
  team: string,
  month: string,
  fx?: FxRates,
  waste: WasteDiagnosis | null = null,
): Promise<ReviewLine[]> {
  const [lines, { instances: inventory }] = await Promise.all([
    loadCostLines(deps, monthOf(`${month}-01`), team, { currency: teamCurrency(deps.config, team), fx }, deps.config.review.lines),
    deps.gpu ? deps.gpu.inventory() : Promise.resolve({ instances: [] }),
  ]);
  const instances = new Map<string, GpuInstance>(inventory.map((i) => [i.instanceId, i]));
  const recommended = await linesRecommendations(deps, team, lines);
  // The diagnosis is in the fx base currency; the lines in the team's, at the month's rate.
  const rates = fx ?? (await loadFxRates(deps));
  const inTeamCurrency = (amount: number | null) => {
    if (amount === null || !waste) return null;
    const converted = convert(amount, waste.currency, teamCurrency(deps.config, team), rates, month);
    return converted === null ? null : Math.round(converted * 100) / 100;
  };
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
      spotSaving: spotSavesOn(line.pricing) ? inTeamCurrency(spotSaving(waste, line.resourceId, team)) : null,
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
