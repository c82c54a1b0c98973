import type { SourceFreshness } from './source-freshness.js';

/**
 * How far the data reaches across sources: the earliest of their ends, because a total is only
 * complete up to the point every source has reported.
 */
export function combinedDataThrough(sources: readonly SourceFreshness[]): string | null {
  const ends = sources.map((s) => s.dataThrough).filter((d): d is string => d !== null);
  if (ends.length === 0) return null;
  return ends.reduce((a, b) => (new Date(b) < new Date(a) ? b : a));
}

/** The last day (YYYY-MM-DD, UTC) data through `dataThrough` (exclusive) covers, wholly or in part. */
export function lastDataDay(dataThrough: string): string {
  return new Date(new Date(dataThrough).getTime() - 1).toISOString().slice(0, 10);
}
