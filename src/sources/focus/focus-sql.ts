import { normaliseTag } from '../../domain/ownership.js';
import type { UnitTagKeys } from '../../ports/pull-context.js';
import { isoCurrencySql } from './iso-currencies.js';
import { FOCUS_COLUMNS, type FocusColumn, type FocusFileLayout } from './focus-columns.js';
import { focusFormatOf } from './focus-format.js';

// The SQL of a FOCUS import: how each file is read, each column parsed, and the rows aggregated.
// The same shape is what would run in Athena or BigQuery for organisations that outgrow one machine.

/** The DuckDB table function that reads one FOCUS file. Everything in a CSV is read as text. */
export function focusReaderSql(file: string): string {
  if (focusFormatOf(file) === 'parquet') return `read_parquet(${sqlString(file)})`;
  // An explicit dialect (the sniffer only confirms it), an 8 MiB buffer (lower peak memory than the
  // default, no slower), compression (.gz) from the extension.
  return `read_csv(${sqlString(file)}, header = true, all_varchar = true, delim = ',', quote = '"', escape = '"', nullstr = ['NULL', 'null', ''], buffer_size = 8388608)`;
}

/** The rows of one described file: the file itself, or its mapping to FOCUS columns. */
export function layoutReaderSql(layout: FocusFileLayout): string {
  return layout.reader ? `(${layout.reader})` : focusReaderSql(layout.file);
}

/** SQL for one column of one file, parsed into the type the aggregation expects. */
export function columnSql(layout: FocusFileLayout, column: FocusColumn): string {
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

/** One file's rows, tagged with the file's index: its part of the export. */
function projectionSql(layout: FocusFileLayout, part: number): string {
  const columns = FOCUS_COLUMNS.map((column) => `${columnSql(layout, column)} AS ${column.alias}`);
  return `SELECT ${part} AS part, ${columns.join(', ')} FROM ${layoutReaderSql(layout)}`;
}

/**
 * The owner tag value in SQL (and, with one key, any tag's value: the unit-cost tags): the value of the first configured tag key present in a Tags JSON
 * object, keys compared without whitespace and case (" Team ", TEAM, user:Team). JSON null, '' and
 * 'NULL' count as absent; Tags that are not a JSON object give NULL (untagged).
 */
export function ownerTagSql(tagsSql: string, tagKeys: readonly string[]): string {
  const keys = [...new Set(tagKeys.map(normaliseTag).filter((k) => k !== ''))];
  if (keys.length === 0) return 'CAST(NULL AS VARCHAR)';
  const spaces = `' ' || chr(9) || chr(10) || chr(11) || chr(12) || chr(13)`;
  const value = `trim(e.value, ${spaces})`;
  const picks = keys.map(
    (key) =>
      `list_filter(m, e -> lower(regexp_replace(e.key, '\\s', '', 'g')) = ${sqlString(key)} AND ${value} <> '' AND upper(${value}) <> 'NULL')[1].value`,
  );
  const entries = `map_entries(TRY_CAST(TRY_CAST(${tagsSql} AS JSON) AS MAP(VARCHAR, VARCHAR)))`;
  return `trim(list_transform([${entries}], m -> coalesce(${picks.join(', ')}))[1], ${spaces})`;
}

/** Group keys of the daily rows (besides the day, billing period and owner tag). */
export const KEYS = [
  'account',
  'provider',
  'sub_account',
  'service',
  'service_category',
  'resource_id',
  'charge_category',
  'pricing_category',
  'currency',
] as const;

/**
 * The one aggregation query of an import. Rows are first grouped by the raw Tags text (few distinct
 * values, and no JSON parsing per row), then the owner tag is computed per group and regrouped.
 * Rows stay apart per file (part), so each can be replaced on its own later. Counts of unparsable
 * values, of currencies outside ISO 4217 (checked per group, not per row) and of cost lines above
 * the sanity ceiling ride along, so validation costs no second pass on the happy path.
 */
export function aggregationSql(
  layouts: readonly FocusFileLayout[],
  tagKeys: readonly string[],
  unitTagKeys: UnitTagKeys | undefined,
  lineCeiling: number,
): string {
  const source = layouts.map((layout, part) => projectionSql(layout, part)).join('\nUNION ALL\n');
  const ceiling = `CAST(${sqlString(String(lineCeiling))} AS DOUBLE)`;
  const keys = KEYS.join(', ');
  return `
WITH source AS (
${source}
),
by_tags AS (
  SELECT part, CAST(charge_start AS DATE) AS day, CAST(billing_start AS DATE) AS billing_day, ${keys}, tags,
    sum(billed) AS billed, sum(effective) AS effective, max(charge_end) AS data_through,
    count(*) - count(billed) AS bad_billed, count(*) - count(effective) AS bad_effective,
    count(*) - count(charge_start) AS bad_charge_start, count(*) - count(billing_start) AS bad_billing_start,
    count(*) - count(currency) AS bad_currency, count(*) AS lines,
    count(*) FILTER (WHERE abs(billed) > ${ceiling} OR abs(effective) > ${ceiling}) AS over_ceiling
  FROM source
  GROUP BY ALL
)
SELECT part, strftime(day, '%Y-%m-%d') AS day, strftime(billing_day, '%Y-%m') AS billing_period, ${keys},
  ${ownerTagSql('tags', tagKeys)} AS owner_tag,
  ${ownerTagSql('tags', unitTagKeys ? [unitTagKeys.experiment] : [])} AS experiment,
  ${ownerTagSql('tags', unitTagKeys ? [unitTagKeys.run] : [])} AS run_id,
  ${ownerTagSql('tags', unitTagKeys ? [unitTagKeys.sweep] : [])} AS sweep,
  CAST(sum(billed) AS DOUBLE) AS billed, CAST(sum(effective) AS DOUBLE) AS effective,
  CAST(epoch_ms(max(data_through)) AS DOUBLE) AS data_through,
  CAST(sum(bad_billed) AS DOUBLE) AS bad_billed, CAST(sum(bad_effective) AS DOUBLE) AS bad_effective,
  CAST(sum(bad_charge_start) AS DOUBLE) AS bad_charge_start, CAST(sum(bad_billing_start) AS DOUBLE) AS bad_billing_start,
  CAST(sum(bad_currency) + sum(CASE WHEN currency IS NULL OR ${isoCurrencySql('currency')} THEN 0 ELSE lines END) AS DOUBLE) AS bad_currency,
  CAST(sum(over_ceiling) AS DOUBLE) AS over_ceiling
FROM by_tags
GROUP BY ALL`;
}

export function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

export function sqlIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
