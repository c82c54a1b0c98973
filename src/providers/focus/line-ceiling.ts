import type { DuckDBConnection } from '@duckdb/node-api';
import { runForFile } from './duckdb-errors.js';
import { FOCUS_COLUMNS, type FocusFileLayout } from './focus-columns.js';
import { columnSql, layoutReaderSql } from './focus-sql.js';

// A sanity ceiling per cost line: one line of a billion is far more often a broken export (a unit
// price in the cost column, a shifted decimal) than real spend. Such lines are imported, since
// refusing real spend would hide it, but each is named so someone looks at it.

/** The default ceiling, per cost line, in the line's own currency. */
export const DEFAULT_LINE_COST_CEILING = 1_000_000;

/** At most this many lines are named; the warning says how many more there are. */
const MAX_NAMED = 10;

/**
 * Only when the aggregation counted lines above the ceiling: names them (file, data row, resource,
 * amount) with one single-threaded query per file, so row numbers follow the file order.
 */
export async function warnLinesAboveCeiling(
  connection: DuckDBConnection,
  layouts: readonly FocusFileLayout[],
  ceiling: number,
  count: number,
): Promise<string[]> {
  await connection.run('SET threads = 1');
  const warnings: string[] = [];
  const limit = `CAST('${ceiling}' AS DOUBLE)`;
  for (const layout of layouts) {
    if (warnings.length >= MAX_NAMED) break;
    const parsed = (alias: string) => columnSql(layout, FOCUS_COLUMNS.find((c) => c.alias === alias)!);
    const sql = `
      SELECT data_row, CAST(billed AS DOUBLE) AS billed, CAST(effective AS DOUBLE) AS effective, currency, resource_id
      FROM (
        SELECT row_number() OVER () AS data_row, ${parsed('billed')} AS billed, ${parsed('effective')} AS effective,
          ${parsed('currency')} AS currency, ${parsed('resource_id')} AS resource_id
        FROM ${layoutReaderSql(layout)}
      )
      WHERE abs(billed) > ${limit} OR abs(effective) > ${limit}
      ORDER BY data_row
      LIMIT ${MAX_NAMED - warnings.length}`;
    for (const line of await runForFile(connection, sql, layout.file)) {
      const billed = Number(line['billed']);
      const effective = Number(line['effective']);
      const [name, amount] = Math.abs(billed) >= Math.abs(effective) ? ['BilledCost', billed] : ['EffectiveCost', effective];
      const resource = typeof line['resource_id'] === 'string' ? `, resource ${line['resource_id']}` : '';
      warnings.push(
        `${layout.file} row ${String(line['data_row'])}${resource}: ${name} ${money(amount)} ${String(line['currency'])} is above the sanity ceiling of ${money(ceiling)} per cost line; imported as is`,
      );
    }
  }
  if (count > warnings.length) warnings.push(`${count - warnings.length} more cost line(s) above the sanity ceiling of ${money(ceiling)}`);
  return warnings;
}

function money(amount: number): string {
  return amount.toLocaleString('en-US', { maximumFractionDigits: 2 });
}
