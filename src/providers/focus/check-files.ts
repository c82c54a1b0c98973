import { open, stat } from 'node:fs/promises';
import { BurnrateError } from '../../domain/errors.js';
import { focusFormatOf } from './focus-format.js';

/** Every file must exist and hold something. Returns the total size, for progress. */
export async function checkFiles(files: readonly string[]): Promise<number> {
  if (files.length === 0) {
    throw new BurnrateError('burnrate_focus_missing', 'no FOCUS files to import', 'Give at least one .csv, .csv.gz or .parquet file.');
  }
  let total = 0;
  for (const file of files) {
    let size: number;
    try {
      const info = await stat(file);
      if (!info.isFile())
        throw new BurnrateError('burnrate_focus_invalid', `${file}: not a file`, 'Give the path of a FOCUS export file, not a folder.');
      size = info.size;
    } catch (error) {
      if (error instanceof BurnrateError) throw error;
      throw new BurnrateError(
        'burnrate_focus_missing',
        `FOCUS file not found: ${file}`,
        'Check the path (relative paths start at the working directory).',
      );
    }
    if (size === 0)
      throw new BurnrateError(
        'burnrate_focus_invalid',
        `${file}: file is empty`,
        'Re-run or re-download the export; nothing was imported.',
      );
    if (focusFormatOf(file) === 'csv' && !/\.gz$/i.test(file) && (await startsWithBinary(file))) {
      throw new BurnrateError(
        'burnrate_focus_invalid',
        `${file}: binary data, not a CSV text file`,
        'Name Parquet files *.parquet and gzip files *.csv.gz; nothing was imported.',
      );
    }
    total += size;
  }
  return total;
}

/** A NUL byte in the first 64 KiB: no CSV text file has one. */
async function startsWithBinary(file: string): Promise<boolean> {
  const handle = await open(file, 'r').catch(() => null);
  if (!handle) return false; // unreadable: DuckDB reports it
  try {
    const buffer = Buffer.alloc(65536);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).includes(0);
  } finally {
    await handle.close();
  }
}
