import type { PgSession } from './pg-session.js';

/**
 * Upserts many rows with one statement per round instead of one per row. `sql` reads its rows
 * from $1, a JSON array (jsonb_to_recordset). A statement may not touch a row twice, so a key
 * given again goes into the next round: the rows land in the order given, as SQLite's upserts
 * one by one would apply them.
 */
export async function upsertRounds<T>(
  tx: PgSession,
  sql: string,
  rows: readonly T[],
  keyOf: (row: T) => readonly unknown[],
): Promise<void> {
  for (const round of rounds(rows, (row) => JSON.stringify(keyOf(row)))) await tx.run(sql, [JSON.stringify(round)]);
}

/** Round n holds the (n+1)th row of each key, in order. */
function rounds<T>(rows: readonly T[], keyOf: (row: T) => string): T[][] {
  const result: T[][] = [];
  const seen = new Map<string, number>();
  for (const row of rows) {
    const key = keyOf(row);
    const round = seen.get(key) ?? 0;
    seen.set(key, round + 1);
    (result[round] ??= []).push(row);
  }
  return result;
}
