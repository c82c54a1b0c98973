import { loadPriceCatalog } from '../../catalog/price-catalog.js';
import { spotSaving } from '../../checks/review/spot-saving.js';
import type { Deps } from '../../deps.js';
import type { GpuInstance } from '../../domain/gpu-inventory.js';
import { monthOf } from '../../domain/period.js';
import type { ReviewLine } from '../../domain/review.js';

/**
 * A team's top cost lines of a month, with what the inventory knows of each instance (its name,
 * type and workload) and, for on-demand GPU instances, the catalog's saving on spot.
 */
export async function loadReviewLines(deps: Deps, team: string, month: string): Promise<ReviewLine[]> {
  const [lines, inventory] = await Promise.all([deps.store.breakdowns.costLines(monthOf(`${month}-01`), team, deps.config.review.lines), deps.gpu ? deps.gpu.inventory() : Promise.resolve([])]);
  const instances = new Map<string, GpuInstance>(inventory.map((i) => [i.instanceId, i]));
  const catalog = loadPriceCatalog();
  return lines.map((line) => {
    const instance = line.resourceId ? instances.get(line.resourceId) : undefined;
    const cost = Math.round(line.effective * 100) / 100;
    return {
      key: line.key,
      label: instance?.name ?? line.key,
      resourceId: line.resourceId,
      service: line.service,
      category: line.category,
      pricing: line.pricing,
      cost,
      instanceType: instance?.instanceType ?? null,
      workload: instance?.workload ?? null,
      spotSaving: spotSaving(cost, line.pricing, instance, catalog),
    };
  });
}
