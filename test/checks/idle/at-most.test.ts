import { describe, expect, it } from 'vitest';
import { OPERATORS, type Operator } from '../../../src/checks/compare.js';
import { atMost } from '../../../src/checks/idle/at-most.js';

const OPS = Object.keys(OPERATORS) as Operator[];
const INF = Number.POSITIVE_INFINITY;
const f32 = Math.fround;

/** Limits a policy can name, and the ±∞ the scan uses for tests that never fire. */
const LIMITS = [-INF, -1024, -1, -0, 0, Number.MIN_VALUE, 1, 5, 60, 1024, 1e308, Number.MAX_VALUE, INF];

/** Values around each limit: on it, the doubles and the Float32 samples next to it, and the odd ones. */
function valuesNear(limit: number): number[] {
  const near = [limit, limit * (1 - Number.EPSILON), limit * (1 + Number.EPSILON), f32(limit), limit + 1, limit - 1];
  const float32Step = Math.abs(f32(limit)) * 2 ** -23;
  near.push(f32(limit) + float32Step, f32(limit) - float32Step);
  return [...near, Number.NaN, 0, -0, INF, -INF, Number.MIN_VALUE, -Number.MIN_VALUE, Number.MAX_VALUE, -Number.MAX_VALUE];
}

describe('a threshold test as value × sign ≤ bound', () => {
  it('answers exactly as the operator table, on the limit, next to it, and for NaN and infinities', () => {
    let checked = 0;
    for (const operator of OPS) {
      for (const limit of LIMITS) {
        const { sign, bound } = atMost(operator, limit);
        for (const value of valuesNear(limit)) {
          const expected = OPERATORS[operator](value, limit);
          if (value * sign <= bound !== expected) throw new Error(`${value} ${operator} ${limit}: expected ${expected}`);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(800);
  });

  it('moves a strict bound to the very next double, so the limit itself fails and the sample below passes', () => {
    const { sign, bound } = atMost('lt', 5);
    expect(sign).toBe(1);
    expect(bound).toBeLessThan(5);
    expect(4.999999999999999 * sign <= bound).toBe(true); // the double just below 5
    expect(atMost('gt', 1024)).toEqual({ sign: -1, bound: -1024.0000000000002 });
  });
});
