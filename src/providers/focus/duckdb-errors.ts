import type { DuckDBConnection } from '@duckdb/node-api';
import { BurnrateError } from '../../domain/errors.js';
import type { FocusFileLayout } from './focus-columns.js';
import { focusFormatOf } from './focus-format.js';

/** Runs a query and reads all rows as plain JS values; DuckDB errors become BurnrateErrors naming the file. */
export async function runForFile(
  connection: DuckDBConnection,
  sql: string,
  file: string | undefined,
  layouts?: readonly FocusFileLayout[],
): Promise<Record<string, unknown>[]> {
  try {
    const reader = await connection.runAndReadAll(sql);
    return reader.getRowObjectsJS() as Record<string, unknown>[];
  } catch (error) {
    throw focusReadError(error, file, layouts);
  }
}

/** A DuckDB error as a BurnrateError naming the file it came from (the one given, or the one DuckDB names). */
export function focusReadError(error: unknown, file: string | undefined, layouts?: readonly FocusFileLayout[]): BurnrateError {
  const message = error instanceof Error ? error.message : String(error);
  const named = /^\s*file = (.+)$/m.exec(message)?.[1]?.trim();
  const culprit = file ?? layouts?.find((l) => l.file === named)?.file ?? layouts?.find((l) => message.includes(l.file))?.file;
  const format = culprit ? focusFormatOf(culprit) : undefined;
  const what =
    format === 'parquet' ? 'cannot read as Parquet' : format === 'csv' ? 'cannot read as FOCUS CSV' : 'cannot read the FOCUS files';
  return new BurnrateError(
    'burnrate_focus_invalid',
    `${culprit ? `${culprit}: ` : ''}${what}: ${explainDuckDbError(message)}`,
    'Check that the file is a FOCUS export (.csv, .csv.gz or .parquet, named by its format); nothing was imported.',
  );
}

/** DuckDB's reader errors are long and tuned for SQL users: one line a burnrate user can act on. */
function explainDuckDbError(message: string): string {
  const line = /CSV Error on Line: (\d+)/.exec(message)?.[1];
  const columns = /Expected Number of Columns: (\d+) Found: (\d+)/.exec(message);
  if (line && columns) return `line ${line} has ${columns[2]} columns, the header ${columns[1]}`;
  if (/Error when sniffing file/.test(message)) return 'not comma-separated UTF-8 text with the same number of columns on every line';
  if (/not a GZIP stream/i.test(message)) return 'not gzip-compressed, although its name ends in .gz';
  if (/No magic bytes found/.test(message)) return 'not a Parquet file';
  const first =
    message
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? 'unknown error';
  return (line ? `line ${line}: ${first}` : first).slice(0, 300);
}
