import type { Operator } from '../compare.js';

/**
 * A threshold test in the one form the idle loops compute: `value × sign ≤ bound`. Whatever the
 * operator the policy names, a test is then one multiply and one comparison, with no call through
 * the operator table, so the loops compile to the same straight code for every policy (a call
 * site that met several operators would call through on every sample).
 *
 * ≥ and > flip the sign. < and > move the bound to the next double below, which is exact: no double
 * lies between the two, so for every double x, x < b exactly when x ≤ nextDown(b). NaN fails the
 * test, as it fails every comparison in the operator table.
 */
export interface AtMost {
  sign: number;
  bound: number;
}

export function atMost(operator: Operator, limit: number): AtMost {
  const sign = operator === 'gt' || operator === 'gte' ? -1 : 1;
  const bound = sign * limit;
  return { sign, bound: operator === 'lt' || operator === 'gt' ? nextDown(bound) : bound };
}

const double = new Float64Array(1);
const bits = new BigInt64Array(double.buffer);

/** The largest double below x. Nothing lies below −∞, and NaN as a bound passes nothing. */
function nextDown(x: number): number {
  if (Number.isNaN(x) || x === Number.NEGATIVE_INFINITY) return Number.NaN;
  if (x === 0) return -Number.MIN_VALUE;
  // A double's bits, read as a signed integer, order like its magnitude within each sign.
  double[0] = x;
  bits[0]! += x > 0 ? -1n : 1n;
  return double[0];
}
