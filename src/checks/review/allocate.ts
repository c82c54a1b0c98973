/**
 * Splits an amount in whole cents over weights, so the parts add up to the amount exactly: each
 * gets its proportional share, rounded by the largest-remainder method every finance team knows
 * from allocating overhead (see `roundCents`). Weights that add up to nothing split it evenly.
 */
export function allocateCents(amount: number, weights: ReadonlyMap<string, number>): Map<string, number> {
  const total = [...weights.values()].reduce((a, b) => a + b, 0);
  const shares = new Map([...weights].map(([key, weight]) => [key, total > 0 ? (amount * weight) / total : amount / weights.size]));
  return roundCents(shares, Math.round(Number((amount * 100).toPrecision(12))));
}

/**
 * Rounds exact amounts to whole cents so that they add up to their rounded sum (or to `targetCents`,
 * a total rounded elsewhere that is within a cent per part of theirs): each part is rounded down,
 * and the cents left go one each to the largest remainders (ties by key, so the result does not
 * depend on input order). No part moves by a cent or more, whatever its size: the drift of rounding
 * lines one by one is never charged to one line (the largest, say). Amounts may be negative.
 */
export function roundCents(amounts: ReadonlyMap<string, number>, targetCents?: number): Map<string, number> {
  const parts = [...amounts].map(([key, amount]) => {
    // Snapped to 12 significant digits first, so 0.1 + 0.2 is 30 cents, not 30.000000000000004.
    const exact = Number((amount * 100).toPrecision(12));
    return { key, exact, floor: Math.floor(exact) };
  });
  const target = targetCents ?? Math.round(Number(parts.reduce((s, p) => s + p.exact, 0).toPrecision(15)));
  let left = target - parts.reduce((s, p) => s + p.floor, 0);
  const order = [...parts].sort((a, b) => b.exact - b.floor - (a.exact - a.floor) || a.key.localeCompare(b.key));
  // `left` is between 0 and the number of parts whenever the target is within a cent per part.
  for (let i = 0; left > 0 && order.length > 0; i = (i + 1) % order.length, left -= 1) order[i]!.floor += 1;
  for (let i = order.length - 1; left < 0 && order.length > 0; i = (i - 1 + order.length) % order.length, left += 1) order[i]!.floor -= 1;
  return new Map(parts.map((p) => [p.key, p.floor / 100]));
}

/** An amount in whole cents. */
export function cents(amount: number): number {
  return Math.round(Number((amount * 100).toPrecision(12))) / 100;
}
