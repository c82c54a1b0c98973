import { open, stat } from 'node:fs/promises';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { SpendBatch, SpendRow } from '../../domain/spend.js';
import { normaliseTag } from '../../domain/ownership.js';
import { BurnrateError } from '../../errors.js';
import type { PullContext } from '../port.js';

// Reads FOCUS 1.0-1.2 cost exports (CSV, CSV.gz, Parquet) with DuckDB and pre-aggregates them to
// daily SpendRows in one query; JavaScript only sees the aggregated rows. Everything is read as
// text and parsed in SQL so bad values are found and reported instead of silently becoming NULL.

const FIX_HINT =
  'FOCUS costs must be plain decimal numbers (e.g. 12.50), periods ISO 8601 date-times (e.g. 2026-10-01T00:00:00Z). ' +
  'Fix or re-export the file; nothing was imported.';

/** The FOCUS columns burnrate reads, by the alias they get in SQL. */
const FOCUS_COLUMNS = [
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

type FocusColumn = (typeof FOCUS_COLUMNS)[number];
type Alias = FocusColumn['alias'];

export type FocusFormat = 'csv' | 'parquet';

/** Where each FOCUS column is in one file: its real name and DuckDB type, or null when absent. */
export interface FocusFileLayout {
  file: string;
  format: FocusFormat;
  columns: Record<Alias, { name: string; type: string } | null>;
}

/** The values checked row by row, in the order a bad row is reported. */
const CHECKS = [
  { alias: 'billed', column: 'BilledCost', problem: 'number' },
  { alias: 'effective', column: 'EffectiveCost', problem: 'number' },
  { alias: 'charge_start', column: 'ChargePeriodStart', problem: 'date' },
  { alias: 'billing_start', column: 'BillingPeriodStart', problem: 'date' },
  { alias: 'currency', column: 'BillingCurrency', problem: 'text' },
] as const satisfies readonly { alias: Alias; column: string; problem: string }[];

/** Reads FOCUS files into one batch that replaces their billing periods and accounts. All or nothing. */
export async function readFocusFiles(files: string[], ctx: PullContext, sourceId = 'focus'): Promise<SpendBatch> {
  const totalBytes = await checkFiles(files);
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await connection.run("SET TimeZone = 'UTC'");
    const layouts: FocusFileLayout[] = [];
    for (const file of files) layouts.push(await describeFocusFile(connection, file));
    const aggregated = await aggregateFocus(connection, layouts, ctx, totalBytes);
    const problems = countProblems(aggregated);
    if (problems > 0) throw await locateFirstProblem(connection, layouts, problems);
    return toBatch(aggregated, ctx, sourceId);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Every file must exist and hold something. Returns the total size, for progress. */
async function checkFiles(files: readonly string[]): Promise<number> {
  if (files.length === 0) {
    throw new BurnrateError('burnrate_focus_missing', 'no FOCUS files to import', 'Give at least one .csv, .csv.gz or .parquet file.');
  }
  let total = 0;
  for (const file of files) {
    let size: number;
    try {
      const info = await stat(file);
      if (!info.isFile()) throw new BurnrateError('burnrate_focus_invalid', `${file}: not a file`, 'Give the path of a FOCUS export file, not a folder.');
      size = info.size;
    } catch (error) {
      if (error instanceof BurnrateError) throw error;
      throw new BurnrateError('burnrate_focus_missing', `FOCUS file not found: ${file}`, 'Check the path (relative paths start at the working directory).');
    }
    if (size === 0) throw new BurnrateError('burnrate_focus_invalid', `${file}: file is empty`, 'Re-run or re-download the export; nothing was imported.');
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

export function focusFormatOf(file: string): FocusFormat {
  return /\.parquet$/i.test(file) ? 'parquet' : 'csv';
}

/** The DuckDB table function that reads one FOCUS file. Everything in a CSV is read as text. */
export function focusReaderSql(file: string): string {
  if (focusFormatOf(file) === 'parquet') return `read_parquet(${sqlString(file)})`;
  // An explicit dialect (the sniffer only confirms it), an 8 MiB buffer (lower peak memory than the
  // default, no slower), compression (.gz) from the extension.
  return `read_csv(${sqlString(file)}, header = true, all_varchar = true, delim = ',', quote = '"', escape = '"', nullstr = ['NULL', 'null', ''], buffer_size = 8388608)`;
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

/** SQL for one column of one file, parsed into the type the aggregation expects. */
function columnSql(layout: FocusFileLayout, column: FocusColumn): string {
  const found = layout.columns[column.alias];
  if (!found) return 'CAST(NULL AS VARCHAR)';
  const ref = sqlIdentifier(found.name);
  const isText = found.type === 'VARCHAR';
  switch (column.kind) {
    case 'decimal':
      // DECIMAL(18,10) parses fast (64-bit); only values of 10^8 and more take the 128-bit path.
      // The sums are DECIMAL(38,10): exact to the cent however many rows.
      return `coalesce(TRY_CAST(${ref} AS DECIMAL(18, 10)), TRY_CAST(${ref} AS DECIMAL(38, 10)))`;
    case 'timestamp': {
      if (/^(TIMESTAMP|DATE)/.test(found.type)) return `TRY_CAST(${ref} AS TIMESTAMPTZ)`;
      // DuckDB would read "4/1/25" as the year 4: only ISO 8601 (YYYY-MM-DD...) is accepted.
      const text = isText ? ref : `CAST(${ref} AS VARCHAR)`;
      return `CASE WHEN ${text} LIKE '____-__-__%' THEN TRY_CAST(${text} AS TIMESTAMPTZ) END`;
    }
    case 'json':
      if (/^(MAP|STRUCT)/.test(found.type)) return `CAST(to_json(${ref}) AS VARCHAR)`;
      return isText ? ref : `CAST(${ref} AS VARCHAR)`;
    case 'text':
      return isText ? ref : `CAST(${ref} AS VARCHAR)`;
  }
}

function projectionSql(layout: FocusFileLayout): string {
  const columns = FOCUS_COLUMNS.map((column) => `${columnSql(layout, column)} AS ${column.alias}`);
  return `SELECT ${columns.join(', ')} FROM ${focusReaderSql(layout.file)}`;
}

/**
 * The owner tag value in SQL: the value of the first configured tag key present in a Tags JSON
 * object, keys compared without whitespace and case (" Team ", TEAM, user:Team). JSON null, '' and
 * 'NULL' count as absent; Tags that are not a JSON object give NULL (untagged).
 */
export function ownerTagSql(tagsSql: string, tagKeys: readonly string[]): string {
  const keys = [...new Set(tagKeys.map(normaliseTag).filter((k) => k !== ''))];
  if (keys.length === 0) return 'CAST(NULL AS VARCHAR)';
  const spaces = `' ' || chr(9) || chr(10) || chr(11) || chr(12) || chr(13)`;
  const value = `trim(e.value, ${spaces})`;
  const picks = keys.map(
    (key) => `list_filter(m, e -> lower(regexp_replace(e.key, '\\s', '', 'g')) = ${sqlString(key)} AND ${value} <> '' AND upper(${value}) <> 'NULL')[1].value`,
  );
  const entries = `map_entries(TRY_CAST(TRY_CAST(${tagsSql} AS JSON) AS MAP(VARCHAR, VARCHAR)))`;
  return `trim(list_transform([${entries}], m -> coalesce(${picks.join(', ')}))[1], ${spaces})`;
}

/** Group keys of the daily rows (besides the day, billing period and owner tag). */
const KEYS = ['account', 'provider', 'sub_account', 'service', 'service_category', 'resource_id', 'charge_category', 'pricing_category', 'currency'] as const;

interface AggregatedRow {
  day: string | null;
  billing_period: string | null;
  account: string | null;
  provider: string | null;
  sub_account: string | null;
  service: string | null;
  service_category: string | null;
  resource_id: string | null;
  charge_category: string | null;
  pricing_category: string | null;
  currency: string | null;
  owner_tag: string | null;
  billed: number | null;
  effective: number | null;
  data_through: number | null;
  bad_billed: number;
  bad_effective: number;
  bad_charge_start: number;
  bad_billing_start: number;
  bad_currency: number;
}

/**
 * The one aggregation query of an import. Rows are first grouped by the raw Tags text (few distinct
 * values, and no JSON parsing per row), then the owner tag is computed per group and regrouped.
 * Counts of unparsable values ride along so validation costs no second pass on the happy path.
 */
export function aggregationSql(layouts: readonly FocusFileLayout[], tagKeys: readonly string[]): string {
  const source = layouts.map(projectionSql).join('\nUNION ALL\n');
  const keys = KEYS.join(', ');
  return `
WITH source AS (
${source}
),
by_tags AS (
  SELECT CAST(charge_start AS DATE) AS day, CAST(billing_start AS DATE) AS billing_day, ${keys}, tags,
    sum(billed) AS billed, sum(effective) AS effective, max(charge_end) AS data_through,
    count(*) - count(billed) AS bad_billed, count(*) - count(effective) AS bad_effective,
    count(*) - count(charge_start) AS bad_charge_start, count(*) - count(billing_start) AS bad_billing_start,
    count(*) - count(currency) AS bad_currency
  FROM source
  GROUP BY ALL
)
SELECT strftime(day, '%Y-%m-%d') AS day, strftime(billing_day, '%Y-%m') AS billing_period, ${keys},
  ${ownerTagSql('tags', tagKeys)} AS owner_tag,
  CAST(sum(billed) AS DOUBLE) AS billed, CAST(sum(effective) AS DOUBLE) AS effective,
  CAST(epoch_ms(max(data_through)) AS DOUBLE) AS data_through,
  CAST(sum(bad_billed) AS DOUBLE) AS bad_billed, CAST(sum(bad_effective) AS DOUBLE) AS bad_effective,
  CAST(sum(bad_charge_start) AS DOUBLE) AS bad_charge_start, CAST(sum(bad_billing_start) AS DOUBLE) AS bad_billing_start,
  CAST(sum(bad_currency) AS DOUBLE) AS bad_currency
FROM by_tags
GROUP BY ALL`;
}

async function aggregateFocus(connection: DuckDBConnection, layouts: readonly FocusFileLayout[], ctx: PullContext, totalBytes: number): Promise<AggregatedRow[]> {
  const onProgress = ctx.onProgress;
  let timer: NodeJS.Timeout | undefined;
  if (onProgress) {
    await connection.run('SET enable_progress_bar = true');
    await connection.run('SET enable_progress_bar_print = false');
    onProgress(0, totalBytes);
    timer = setInterval(() => {
      const percentage = connection.progress.percentage;
      if (percentage > 0) onProgress(Math.min(totalBytes, Math.round((percentage / 100) * totalBytes)), totalBytes);
    }, 250);
  }
  try {
    const rows = await runForFile(connection, aggregationSql(layouts, ctx.tagKeys), layouts.length === 1 ? layouts[0]!.file : undefined, layouts);
    onProgress?.(totalBytes, totalBytes);
    return rows as unknown as AggregatedRow[];
  } finally {
    if (timer) clearInterval(timer);
  }
}

function countProblems(rows: readonly AggregatedRow[]): number {
  let problems = 0;
  for (const row of rows) problems += row.bad_billed + row.bad_effective + row.bad_charge_start + row.bad_billing_start + row.bad_currency;
  return problems;
}

/**
 * Only on the error path: finds the first bad row (file, data row number, column, value) with a
 * second, single-threaded query per file, so row numbers follow the file order.
 */
async function locateFirstProblem(connection: DuckDBConnection, layouts: readonly FocusFileLayout[], problems: number): Promise<BurnrateError> {
  const inAll = problems > 1 ? ` (${problems.toLocaleString('en-US')} invalid values in all)` : '';
  await connection.run('SET threads = 1');
  for (const layout of layouts) {
    const checks = CHECKS.map((check) => {
      const found = layout.columns[check.alias]!;
      const raw = found.type === 'VARCHAR' ? sqlIdentifier(found.name) : `CAST(${sqlIdentifier(found.name)} AS VARCHAR)`;
      const parsed = columnSql(layout, FOCUS_COLUMNS.find((c) => c.alias === check.alias)!);
      return { ...check, raw, parsed };
    });
    const sql = `
      SELECT data_row, ${checks.map((c) => `raw_${c.alias}, ok_${c.alias}`).join(', ')}
      FROM (
        SELECT row_number() OVER () AS data_row,
          ${checks.map((c) => `${c.raw} AS raw_${c.alias}, ${c.parsed} IS NOT NULL AS ok_${c.alias}`).join(',\n          ')}
        FROM ${focusReaderSql(layout.file)}
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
            : `${check.column} is invalid (${shown})`;
    return new BurnrateError('burnrate_focus_invalid', `${layout.file} row ${String(bad['data_row'])}: ${what}${inAll}`, FIX_HINT);
  }
  return new BurnrateError('burnrate_focus_invalid', `FOCUS files have ${problems} invalid cost, date or currency values`, FIX_HINT);
}

function toBatch(aggregated: readonly AggregatedRow[], ctx: PullContext, sourceId: string): SpendBatch {
  const periods = new Set<string>();
  const accounts = new Set<string>();
  let dataThrough = -Infinity;
  const rows: SpendRow[] = aggregated.map((row) => {
    const billingPeriod = row.billing_period!;
    periods.add(billingPeriod);
    accounts.add(row.account ?? '');
    if (row.data_through !== null && row.data_through > dataThrough) dataThrough = row.data_through;
    return {
      day: row.day!,
      billingPeriod,
      team: ctx.resolveTeam(row.owner_tag),
      ownerTag: row.owner_tag,
      provider: row.provider ?? '(none)',
      billingAccount: row.account,
      subAccount: row.sub_account,
      service: row.service ?? '(none)',
      serviceCategory: row.service_category,
      resourceId: row.resource_id,
      chargeCategory: row.charge_category ?? '(none)',
      pricingCategory: row.pricing_category,
      currency: row.currency!,
      billed: row.billed ?? 0,
      effective: row.effective ?? 0,
    };
  });
  return {
    scope: { source: sourceId, billingPeriods: [...periods].sort(), billingAccounts: [...accounts].sort() },
    rows,
    dataThrough: Number.isFinite(dataThrough) ? new Date(dataThrough).toISOString() : null,
  };
}

/** Runs a query and reads all rows as plain JS values; DuckDB errors become BurnrateErrors naming the file. */
async function runForFile(connection: DuckDBConnection, sql: string, file: string | undefined, layouts?: readonly FocusFileLayout[]): Promise<Record<string, unknown>[]> {
  try {
    const reader = await connection.runAndReadAll(sql);
    return reader.getRowObjectsJS() as Record<string, unknown>[];
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const named = /^\s*file = (.+)$/m.exec(message)?.[1]?.trim();
    const culprit = file ?? layouts?.find((l) => l.file === named)?.file ?? layouts?.find((l) => message.includes(l.file))?.file;
    const format = culprit ? focusFormatOf(culprit) : undefined;
    const what = format === 'parquet' ? 'cannot read as Parquet' : format === 'csv' ? 'cannot read as FOCUS CSV' : 'cannot read the FOCUS files';
    throw new BurnrateError(
      'burnrate_focus_invalid',
      `${culprit ? `${culprit}: ` : ''}${what}: ${explainDuckDbError(message)}`,
      'Check that the file is a FOCUS export (.csv, .csv.gz or .parquet, named by its format); nothing was imported.',
    );
  }
}

/** DuckDB's reader errors are long and tuned for SQL users: one line a burnrate user can act on. */
function explainDuckDbError(message: string): string {
  const line = /CSV Error on Line: (\d+)/.exec(message)?.[1];
  const columns = /Expected Number of Columns: (\d+) Found: (\d+)/.exec(message);
  if (line && columns) return `line ${line} has ${columns[2]} columns, the header ${columns[1]}`;
  if (/Error when sniffing file/.test(message)) return 'not comma-separated UTF-8 text with the same number of columns on every line';
  if (/not a GZIP stream/i.test(message)) return 'not gzip-compressed, although its name ends in .gz';
  if (/No magic bytes found/.test(message)) return 'not a Parquet file';
  const first = message.split('\n').find((l) => l.trim() !== '')?.trim() ?? 'unknown error';
  return (line ? `line ${line}: ${first}` : first).slice(0, 300);
}

function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

function sqlIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
