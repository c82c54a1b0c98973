import type { DuckDBConnection } from '@duckdb/node-api';
import { BurnrateError } from '../../domain/errors.js';
import { runForFile } from './duckdb-errors.js';
import { FOCUS_COLUMNS, type FocusFileLayout } from './focus-columns.js';
import { focusFormatOf } from './focus-format.js';
import { focusReaderSql } from './focus-sql.js';
import { curPodSplitSql } from './cur-pod-split.js';
import { curToFocusSql, curVersionOf } from './cur-to-focus.js';
import { recogniseForeignExport } from './foreign-exports.js';

/**
 * Finds the FOCUS columns of one file; an AWS CUR (2.0 or legacy) is read through its mapping to
 * FOCUS. A file that is neither is refused with what it looks like and how to export FOCUS, or
 * with all its missing required columns at once.
 */
export async function describeFocusFile(
  connection: DuckDBConnection,
  file: string,
  dimensions: readonly string[] = [],
): Promise<FocusFileLayout> {
  const available = await columnsOf(connection, file, focusReaderSql(file));
  const names = available.map((c) => c.name);
  const cur = curVersionOf(names);
  if (cur) {
    const reader = curToFocusSql(file, names);
    return { ...layoutOf(file, await columnsOf(connection, file, `(${reader})`)), reader, podSplit: curPodSplitSql(file, names) };
  }
  const foreign = FOCUS_COLUMNS.some((c) => c.required && !findColumn(available, c.names)) ? recogniseForeignExport(names) : null;
  if (foreign)
    throw new BurnrateError(
      'burnrate_focus_invalid',
      `${file} is ${foreign.what}, not a FOCUS export; nothing was imported.`,
      foreign.hint,
    );
  return { ...layoutOf(file, available), extensions: dimensions.map((key) => ({ key, column: findColumn(available, [key]) })) };
}

async function columnsOf(connection: DuckDBConnection, file: string, from: string): Promise<{ name: string; type: string }[]> {
  const described = await runForFile(connection, `DESCRIBE SELECT * FROM ${from}`, file);
  return described.map((row) => ({ name: String(row['column_name']), type: String(row['column_type']) }));
}

function layoutOf(file: string, available: { name: string; type: string }[]): FocusFileLayout {
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
