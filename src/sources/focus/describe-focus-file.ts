import type { DuckDBConnection } from '@duckdb/node-api';
import { BurnrateError } from '../../domain/errors.js';
import { runForFile } from './duckdb-errors.js';
import { FOCUS_COLUMNS, type FocusFileLayout } from './focus-columns.js';
import { focusFormatOf } from './focus-format.js';
import { focusReaderSql } from './focus-sql.js';

/** Finds the FOCUS columns of one file; all missing required columns are reported at once. */
export async function describeFocusFile(connection: DuckDBConnection, file: string): Promise<FocusFileLayout> {
  const described = await runForFile(connection, `DESCRIBE SELECT * FROM ${focusReaderSql(file)}`, file);
  const available = described.map((row) => ({ name: String(row['column_name']), type: String(row['column_type']) }));
  const columns = {} as FocusFileLayout['columns'];
  const missing: string[] = [];
  for (const column of FOCUS_COLUMNS) {
    const found = findColumn(available, column.names);
    columns[column.alias] = found;
    if (!found && column.required) missing.push(column.names.join(' (or ') + (column.names.length > 1 ? ')' : ''));
  }
  if (missing.length > 0) {
    throw new BurnrateError(
      'burnrate_focus_invalid',
      `${file}: missing FOCUS column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`,
      'Export with the FOCUS 1.0, 1.1 or 1.2 schema (all mandatory columns); nothing was imported.',
    );
  }
  return { file, format: focusFormatOf(file), columns };
}

/** Exact name first, then case-insensitive; each alternative name in order. */
function findColumn(available: { name: string; type: string }[], names: readonly string[]): { name: string; type: string } | null {
  for (const wanted of names) {
    const exact = available.find((c) => c.name === wanted);
    if (exact) return exact;
    const lower = wanted.toLowerCase();
    const loose = available.find((c) => c.name.toLowerCase() === lower);
    if (loose) return loose;
  }
  return null;
}
