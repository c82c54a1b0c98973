import type { Deps } from '../deps.js';
import type { ConsoleTarget, InstanceLink } from '../domain/instance-links.js';
import { consoleLinkOf } from '../providers/registry.js';
import { billMemo } from './bill-memo.js';

/**
 * The cloud console pages of some resources, by id. A resource known by a bare id that says too little
 * for its console (a Compute Engine VM's numeric id: the console finds a VM by project, zone and name)
 * is linked where the bill names it in full: the one billed resource id since `since` that ends in
 * `/<its id>` or `/<its name>` (`//compute.googleapis.com/projects/P/zones/Z/instances/N`,
 * `projects/P/zones/Z/instances/N`). Two such ids (one name in two projects) say no page for sure: none.
 */
export async function consoleLinksOf(
  deps: Pick<Deps, 'store'>,
  since: string,
  targets: readonly ConsoleTarget[],
): Promise<Map<string, InstanceLink>> {
  const links = new Map<string, InstanceLink>();
  const bare: ConsoleTarget[] = [];
  for (const target of targets) {
    const link = consoleLinkOf(target);
    if (link) links.set(target.id, link);
    else if (BARE_ID.test(target.id)) bare.push(target);
  }
  if (bare.length === 0) return links;
  const billed = await billedPaths(deps, since);
  for (const target of bare) {
    const endings = [target.id, target.name?.trim()].filter((e): e is string => Boolean(e)).map((e) => `/${e}`);
    const named = billed.filter((id) => endings.some((ending) => id.endsWith(ending)));
    if (named.length !== 1) continue;
    const link = consoleLinkOf({ ...target, id: named[0]! });
    if (link) links.set(target.id, link);
  }
  return links;
}

/** The bill's resource ids that are paths, read again only when the bill can have changed: listings ask often. */
function billedPaths(deps: Pick<Deps, 'store'>, since: string): Promise<string[]> {
  return memo(deps, since, '', async () =>
    [...new Set((await deps.store.spend.resourceHours(since)).map((r) => r.resourceId))].filter((id) => id.includes('/')),
  );
}

const memo = billMemo<string[]>();

/** An id with no path of its own: a bill may name the same resource by a path ending in it. */
const BARE_ID = /^[A-Za-z0-9][\w.-]*$/;
