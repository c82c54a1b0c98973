// Robust statistics: the days an anomaly check looks for must not move the yardstick they are
// measured with, as a mean and a standard deviation would be moved by one spike.

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The median absolute deviation scaled to a standard deviation of normal noise (1.4826 × MAD). */
export function robustDeviation(values: readonly number[]): number {
  const centre = median(values);
  return 1.4826 * median(values.map((v) => Math.abs(v - centre)));
}

/**
 * A straight line through points by Theil–Sen: the median of the slopes between every pair, and
 * the median intercept under it. A spike among 28 days moves neither.
 */
export function theilSen(points: readonly { x: number; y: number }[]): { slope: number; intercept: number } {
  const slopes: number[] = [];
  for (let i = 0; i < points.length; i++)
    for (let j = i + 1; j < points.length; j++) {
      const dx = points[j]!.x - points[i]!.x;
      if (dx !== 0) slopes.push((points[j]!.y - points[i]!.y) / dx);
    }
  const slope = median(slopes);
  return { slope, intercept: median(points.map((p) => p.y - slope * p.x)) };
}
