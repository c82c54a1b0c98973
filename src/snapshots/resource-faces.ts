import type { Deps } from '../deps.js';
import type { Period } from '../domain/period.js';
import { resourceIdOf } from '../domain/resource-label.js';
import { consoleLinksOf } from './console-links.js';

/** How a listed resource is shown: its name where the listing's key does not carry it, and its cloud console page. */
export interface ResourceFace {
  name?: string;
  link?: string;
}

/**
 * The names and console pages of some resources, for listing them (keys as the spend listing gives
 * them: an id, or "name (id)" where the bill names it). A name is the GPU inventory's (its Name tag,
 * as the review and `recommend` call machines), else the bill's ResourceName; a console page is the
 * provider's whose resource it is, found by the id with the region and name the inventory or the
 * bill gives (a bare id by the bill's full id of it: consoleLinksOf). An inventory that cannot be read leaves the bill's: a listing never fails for want of a name.
 */
export async function resourceFaces(
  deps: Pick<Deps, 'store' | 'log'> & Partial<Pick<Deps, 'gpu'>>,
  period: Period,
  keys: readonly string[],
): Promise<Map<string, ResourceFace>> {
  if (keys.length === 0) return new Map();
  const ids = keys.map(resourceIdOf);
  const [costs, inventory] = await Promise.all([
    deps.store.spend.resourceCosts(period, ids),
    deps.gpu
      ? deps.gpu.inventory().then(
          ({ instances }) => instances,
          (error: unknown) => {
            deps.log.warn({ err: (error as Error).message }, 'resource names: the GPU inventory could not be read; the bill names them');
            return [];
          },
        )
      : Promise.resolve([]),
  ]);
  const known = new Map<string, { name?: string; region?: string }>();
  const learn = (id: string, name: string | null | undefined, region: string | null | undefined) =>
    known.set(id, { ...known.get(id), ...(name ? { name } : {}), ...(region ? { region } : {}) });
  for (const cost of costs) learn(cost.resourceId, cost.resourceName, cost.region);
  const wanted = new Set(ids);
  for (const instance of inventory) if (wanted.has(instance.instanceId)) learn(instance.instanceId, instance.name, instance.region);
  const links = await consoleLinksOf(
    deps,
    period.start,
    [...new Set(ids)].map((id) => ({ id, region: known.get(id)?.region ?? null, name: known.get(id)?.name ?? null })),
  );
  const faces = new Map<string, ResourceFace>();
  keys.forEach((key, i) => {
    const id = ids[i]!;
    const { name } = known.get(id) ?? {};
    const link = links.get(id);
    // A key of the form "name (id)" already says its name.
    const face = { ...(name && key === id ? { name } : {}), ...(link ? { link: link.url } : {}) };
    if (face.name || face.link) faces.set(key, face);
  });
  return faces;
}
