import type { DuckDBConnection } from '@duckdb/node-api';
import { BurnrateError } from '../../errors.js';
import { runForFile } from './duckdb-errors.js';
import { focusReaderSql } from './focus-sql.js';

// Which FOCUS columns burnrate reads, and where each one is in a given file.

/** The FOCUS columns burnrate reads, by the alias they get in SQL. */
export const FOCUS_COLUMNS = [
  { alias: 'billed', names: ['BilledCost'], required: true, kind: 'decimal' },
  { alias: 'effective', names: ['EffectiveCost'], required: true, kind: 'decimal' },
  { alias: 'currency', names: ['BillingCurrency'], required: true, kind: 'text' },
  { alias: 'billing_start', names: ['BillingPeriodStart'], required: true, kind: 'timestamp' },
  { alias: 'charge_start', names: ['ChargePeriodStart'], required: true, kind: 'timestamp' },
  { alias: 'charge_end', names: ['ChargePeriodEnd'], required: true, kind: 'timestamp' },
  { alias: 'charge_category', names: ['ChargeCategory'], required: true, kind: 'text' },
  { alias: 'service', names: ['ServiceName'], required: true, kind: 'text' },
  { alias: 'provider', names: ['ProviderName', 'ServiceProviderName'], required: true, kind: 'text' },
  { alias: 'account', names: ['BillingAccountId'], required: true, kind: 'text' },
  { alias: 'sub_account', names: ['SubAccountId'], required: false, kind: 'text' },
  { alias: 'service_category', names: ['ServiceCategory'], required: false, kind: 'text' },
  { alias: 'resource_id', names: ['ResourceId'], required: false, kind: 'text' },
  { alias: 'pricing_category', names: ['PricingCategory'], required: false, kind: 'text' },
  { alias: 'tags', names: ['Tags'], required: false, kind: 'json' },
] as const;

export type FocusColumn = (typeof FOCUS_COLUMNS)[number];
export type Alias = FocusColumn['alias'];

export type FocusFormat = 'csv' | 'parquet';

/** Where each FOCUS column is in one file: its real name and DuckDB type, or null when absent. */
export interface FocusFileLayout {
  file: string;
  format: FocusFormat;
  columns: Record<Alias, { name: string; type: string } | null>;
}

/** The values checked row by row, in the order a bad row is reported. */
export const CHECKS = [
  { alias: 'billed', column: 'BilledCost', problem: 'number' },
  { alias: 'effective', column: 'EffectiveCost', problem: 'number' },
  { alias: 'charge_start', column: 'ChargePeriodStart', problem: 'date' },
  { alias: 'billing_start', column: 'BillingPeriodStart', problem: 'date' },
  { alias: 'currency', column: 'BillingCurrency', problem: 'currency' },
] as const satisfies readonly { alias: Alias; column: string; problem: string }[];

export function focusFormatOf(file: string): FocusFormat {
  return /\.parquet$/i.test(file) ? 'parquet' : 'csv';
}

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
