import type { DroppedPrice, GpuPrice, PriceCatalog } from '../domain/price-catalog.js';

/**
 * Catalog rows that contradict their family's order, and the rest. Within one provider, region and
 * GPU model, a type that holds everything another holds (holdsAll) never costs less on demand: no cloud sells the A100 80 GB
 * below the A100 40 GB in one region. A public table that says otherwise has a bad row (the GCP
 * table's a2-ultragpu in us-central1: $2.95/h against $3.67/h for a2-highgpu-1g; Google lists it
 * above), and right-size would recommend "moving up" to it as a saving. The cheaper, larger row is
 * the one dropped: it is the one that would price a saving that does not exist. Pure.
 */
export function dropOutOfOrder(entries: readonly GpuPrice[]): { kept: GpuPrice[]; dropped: DroppedPrice[] } {
  const family = new Map<string, GpuPrice[]>();
  for (const e of entries) {
    const key = `${e.provider}|${e.region}|${e.gpuModel}`;
    const members = family.get(key);
    if (members) members.push(e);
    else family.set(key, [e]);
  }
  const dropped = new Map<GpuPrice, DroppedPrice>();
  for (const members of family.values())
    for (const larger of members)
      for (const smaller of members) {
        if (!holdsAll(larger, smaller) || larger.onDemandHourly >= smaller.onDemandHourly || dropped.has(larger)) continue;
        dropped.set(larger, {
          provider: larger.provider,
          instanceType: larger.instanceType,
          region: larger.region,
          onDemandHourly: larger.onDemandHourly,
          below: { instanceType: smaller.instanceType, onDemandHourly: smaller.onDemandHourly },
          note: `${larger.instanceType} in ${larger.region} is left out of the price catalog: listed at ${usd(larger.onDemandHourly)}/h, below ${smaller.instanceType} (${usd(smaller.onDemandHourly)}/h), which it holds all of (${spec(larger)} against ${spec(smaller)}). A bad source row would price a saving that does not exist.`,
        });
      }
  return { kept: entries.filter((e) => !dropped.has(e)), dropped: [...dropped.values()] };
}

/**
 * `a` has at least every resource `b` has, and more of one: as many GPUs or more, each with as much
 * memory or more (two 40 GB GPUs are not an 80 GB one, and may rightly cost less), as many vCPUs and
 * as much memory. Unknown GPU memory compares with nothing.
 */
function holdsAll(a: GpuPrice, b: GpuPrice): boolean {
  if (a.gpuMemoryGiB === null || b.gpuMemoryGiB === null || a.gpuCount <= 0 || b.gpuCount <= 0) return false;
  // Called for every pair in a family when the catalog loads: compared in place, nothing allocated.
  const perGpuA = a.gpuMemoryGiB / a.gpuCount;
  const perGpuB = b.gpuMemoryGiB / b.gpuCount;
  const atLeast = a.gpuCount >= b.gpuCount && perGpuA >= perGpuB && a.vcpus >= b.vcpus && a.memoryGiB >= b.memoryGiB;
  return atLeast && (a.gpuCount > b.gpuCount || perGpuA > perGpuB || a.vcpus > b.vcpus || a.memoryGiB > b.memoryGiB);
}

function spec(e: GpuPrice): string {
  return `${e.gpuCount}× ${e.gpuModel}, ${e.gpuMemoryGiB} GiB GPU memory, ${e.vcpus} vCPUs, ${e.memoryGiB} GiB`;
}

const usd = (n: number) => `$${n.toFixed(2)}`;

/**
 * What a report on some instances should say of the rows left out in their providers' regions: one
 * note per region, naming each row and the type listed above it.
 */
export function droppedNotesFor(catalog: PriceCatalog, instances: readonly { provider: GpuPrice['provider']; region: string }[]): string[] {
  const places = new Set(instances.map((i) => `${i.provider}|${i.region}`));
  const byPlace = new Map<string, DroppedPrice[]>();
  for (const d of catalog.dropped ?? []) {
    const key = `${d.provider}|${d.region}`;
    if (places.has(key)) byPlace.set(key, [...(byPlace.get(key) ?? []), d]);
  }
  return [...byPlace.values()].map((rows) => {
    const list = rows
      .map((d) => `${d.instanceType} (${usd(d.onDemandHourly)}/h, below ${d.below.instanceType} at ${usd(d.below.onDemandHourly)}/h)`)
      .join(', ');
    return `The price catalog leaves out ${list} in ${rows[0]!.region}: each is listed below a type of the same GPU it holds all of, a bad source row that would price a saving that does not exist.`;
  });
}
