// Money is added exactly, never as a running double: a month of 0.1 lines summed as doubles drifts
// (0.1 + 0.2 = 0.30000000000000004) and a large amount swallows tiny ones, so a total would differ
// from what a FinOps practitioner adds up by hand from the same bill.

/**
 * SQLite has no decimal type: each row's amount is taken in integer micro-units (64-bit, added
 * exactly) and divided once. What a row holds below a micro-unit (nothing for a bill's decimal
 * amounts; a third of a cent for a Kubernetes node's cost split three ways) is added beside it, so
 * a split bill still adds up to its node's line.
 */
export const sqliteMoneySum = (column: string): string =>
  `(sum(CAST(round(${column} * 1000000) AS INTEGER)) / 1000000.0 + round(sum(${column} - round(${column} * 1000000) / 1000000.0), 12))`;

/** Postgres: each amount as NUMERIC (the double's 15 significant digits), summed exactly. */
export const postgresMoneySum = (column: string): string => `sum(${column}::numeric)`;
