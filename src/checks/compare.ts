/** Every threshold comparison goes through this one table, so policies can name an operator. */
export const OPERATORS = {
  gte: (value: number, limit: number) => value >= limit,
  gt: (value: number, limit: number) => value > limit,
  lte: (value: number, limit: number) => value <= limit,
  lt: (value: number, limit: number) => value < limit,
} as const;

export type Operator = keyof typeof OPERATORS;

export function compare(value: number, operator: Operator, limit: number): boolean {
  return OPERATORS[operator](value, limit);
}
