/**
 * Splits an amount in whole cents over weights, so the parts add up to the amount exactly: each
 * gets its proportional share rounded down to the cent, and the cents left go to the largest
 * remainders (the largest-remainder method every finance team knows from allocating overhead).
 */
export function allocateCents(amount: number, weights: ReadonlyMap<string, number>): Map<string, number> {
  const cents = Math.round(amount * 100);
  const total = [...weights.values()].reduce((a, b) => a + b, 0);
  const parts = [...weights].map(([key, weight]) => {
    const exact = total > 0 ? (cents * weight) / total : 0;
    return { key, floor: Math.floor(exact), remainder: exact - Math.floor(exact) };
  });
  let left = cents - parts.reduce((s, p) => s + p.floor, 0);
  for (const part of [...parts].sort((a, b) => b.remainder - a.remainder || a.key.localeCompare(b.key))) {
    if (left <= 0) break;
    part.floor += 1;
    left -= 1;
  }
  return new Map(parts.map((p) => [p.key, p.floor / 100]));
}

/** An amount in whole cents. */
export function cents(amount: number): number {
  return Math.round(Number((amount * 100).toPrecision(12))) / 100;
}
