/**
 * JSON for people and scripts to read money from: every fraction that is a whole number of
 * micro-units up to binary noise (2175.5258999999996, the double sum of exact bill amounts) is
 * written as that decimal (2175.5259). A fraction that is really finer (an exchange rate of
 * 0.00668123, a utilisation of 0.123456789) is far from any micro-unit and is kept as it is.
 */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' ? withoutNoise(v) : v), 2);
}

/** Relative distance from a micro-unit below which a double is that micro-unit plus rounding noise. */
const NOISE = 1e-9;

function withoutNoise(n: number): number {
  if (Number.isInteger(n) || !Number.isFinite(n) || Math.abs(n) >= 9e9) return n;
  const micros = Math.round(n * 1e6) / 1e6;
  return Math.abs(micros - n) <= NOISE * Math.max(1, Math.abs(n)) ? micros : n;
}
