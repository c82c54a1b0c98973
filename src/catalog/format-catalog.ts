import type { GpuPrice } from '../domain/price-catalog.js';

/** gpu-prices.json as committed: one entry per line, so diffs show which prices moved. */
export function formatCatalog(entries: readonly GpuPrice[]): string {
  return `[\n${entries.map((e) => JSON.stringify(e)).join(',\n')}\n]\n`;
}
