import type { DuckDBConnection } from '@duckdb/node-api';
import { BurnrateError } from '../../domain/errors.js';
import { runForFile } from './duckdb-errors.js';
import { CHECKS, FOCUS_COLUMNS, type FocusFileLayout } from './focus-columns.js';
import { columnSql, layoutReaderSql, sqlIdentifier } from './focus-sql.js';
import { isoCurrencySql } from './iso-currencies.js';

const FIX_HINT =
  'FOCUS costs must be plain decimal numbers (e.g. 12.50), periods ISO 8601 date-times (e.g. 2026-10-01T00:00:00Z). ' +
  'Fix or re-export the file; nothing was imported.';

const CURRENCY_HINT =
  'BillingCurrency must be an ISO 4217 code: 3 upper-case letters such as USD or EUR. Fix or re-export the file; nothing was imported.';

/**
 * Only on the error path: finds the first bad row (file, data row number, column, value) with a
 * second, single-threaded query per file, so row numbers follow the file order.
 */
export async function locateFirstProblem(
  connection: DuckDBConnection,
  layouts: readonly FocusFileLayout[],
  problems: number,
): Promise<BurnrateError> {
  const inAll = problems > 1 ? ` (${problems.toLocaleString('en-US')} invalid values in all)` : '';
  await connection.run('SET threads = 1');
  for (const layout of layouts) {
    const checks = CHECKS.map((check) => {
      const found = layout.columns[check.alias]!;
      const raw = found.type === 'VARCHAR' ? sqlIdentifier(found.name) : `CAST(${sqlIdentifier(found.name)} AS VARCHAR)`;
      const parsed = columnSql(layout, FOCUS_COLUMNS.find((c) => c.alias === check.alias)!);
      const ok = check.problem === 'currency' ? `coalesce(${isoCurrencySql(parsed)}, false)` : `${parsed} IS NOT NULL`;
      return { ...check, raw, ok };
    });
    const sql = `
      SELECT data_row, ${checks.map((c) => `raw_${c.alias}, ok_${c.alias}`).join(', ')}
      FROM (
        SELECT row_number() OVER () AS data_row,
          ${checks.map((c) => `${c.raw} AS raw_${c.alias}, ${c.ok} AS ok_${c.alias}`).join(',\n          ')}
        FROM ${layoutReaderSql(layout)}
      )
      WHERE NOT (${checks.map((c) => `ok_${c.alias}`).join(' AND ')})
      ORDER BY data_row
      LIMIT 1`;
    const [bad] = await runForFile(connection, sql, layout.file);
    if (!bad) continue;
    const check = checks.find((c) => bad[`ok_${c.alias}`] !== true)!;
    const raw = bad[`raw_${check.alias}`];
    const shown = typeof raw === 'string' ? JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}...` : raw) : null;
    const what =
      shown === null || (typeof raw === 'string' && raw.trim() === '')
        ? `${check.column} is empty`
        : check.problem === 'number'
          ? `${check.column} is not a number (${shown})`
          : check.problem === 'date'
            ? `${check.column} is not an ISO 8601 date-time (${shown})`
            : `${check.column} is not an ISO 4217 currency code (${shown})`;
    const hint = check.problem === 'currency' ? CURRENCY_HINT : FIX_HINT;
    return new BurnrateError('burnrate_focus_invalid', `${layout.file} row ${String(bad['data_row'])}: ${what}${inAll}`, hint);
  }
  return new BurnrateError('burnrate_focus_invalid', `FOCUS files have ${problems} invalid cost, date or currency values`, FIX_HINT);
}
