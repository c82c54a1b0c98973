// How a FOCUS file is stored, told by its name: the reader, the error messages and the file checks agree.

export type FocusFormat = 'csv' | 'parquet';

export function focusFormatOf(file: string): FocusFormat {
  return /\.parquet$/i.test(file) ? 'parquet' : 'csv';
}
