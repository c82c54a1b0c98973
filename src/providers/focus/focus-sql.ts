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
  if (!found)
    return `CAST(NULL AS ${column.kind === 'decimal' ? 'DECIMAL(18, 10)' : column.kind === 'timestamp' ? 'TIMESTAMP' : 'VARCHAR'})`;
  const ref = sqlIdentifier(found.name);
  const isText = found.type === 'VARCHAR';
  switch (column.kind) {
    case 'decimal':
      // DECIMAL(18,10) parses fast (64-bit); only values of 10^8 and more take the 128-bit path.
      // The sums are DECIMAL(38,10): exact to the cent however many rows.
      return `coalesce(TRY_CAST(${ref} AS DECIMAL(18, 10)), TRY_CAST(${ref} AS DECIMAL(38, 10)))`;
    case 'timestamp': {
      if (/^(TIMESTAMP|DATE)/.test(found.type)) return utcTimestamp(`TRY_CAST(${ref} AS TIMESTAMPTZ)`);
      // DuckDB would read "4/1/25" as the year 4: only ISO 8601 (YYYY-MM-DD...) is accepted.
      const text = isText ? ref : `CAST(${ref} AS VARCHAR)`;
      return `CASE WHEN ${text} LIKE '____-__-__%' THEN ${utcTimestamp(`TRY_CAST(${text} AS TIMESTAMPTZ)`)} END`;
    }
    case 'json':
      if (/^(MAP|STRUCT)/.test(found.type)) return `CAST(to_json(${ref}) AS VARCHAR)`;
      return isText ? ref : `CAST(${ref} AS VARCHAR)`;
    case 'text':
      return isText ? ref : `CAST(${ref} AS VARCHAR)`;
  }
}

/**
 * A point in time parsed with its offset (TIMESTAMPTZ), kept as the plain UTC timestamp it is (the
 * import's session runs in UTC): days, months and spans are then plain arithmetic, where the same
 * on a TIMESTAMPTZ goes through the time zone library on every line (the casts to DATE, intervals
 * and date_trunc: with the Azure ids below, about 0.4 s of the query's CPU per million lines).
 */
const utcTimestamp = (timestamptz: string): string => `make_timestamp(epoch_us(${timestamptz}))`;

/** One file's rows, tagged with the file's index: its part of the export. */
function projectionSql(layout: FocusFileLayout, part: number): string {
  const columns = FOCUS_COLUMNS.map((column) => `${columnSql(layout, column)} AS ${column.alias}`);
  return `SELECT ${part} AS part, ${columns.join(', ')}, ${extensionsSql(layout)} AS extensions FROM ${layoutReaderSql(layout)}`;
}

/** The provider columns kept as dimensions, as one JSON object text; NULL when none is kept. */
function extensionsSql(layout: FocusFileLayout): string {
  const kept = layout.extensions ?? [];
  if (kept.length === 0) return 'CAST(NULL AS VARCHAR)';
  const pairs = kept.map(
    ({ key, column }) => `${sqlString(key)}, ${column ? `nullif(CAST(${sqlIdentifier(column.name)} AS VARCHAR), '')` : 'NULL'}`,
  );
  return `CAST(json_object(${pairs.join(', ')}) AS VARCHAR)`;
}

/**
 * An Azure resource id (`/subscriptions/...`) in lower case: Azure compares resource ids without
 * case and its exports spell one VM's resource group in either case, so the bill's rows of one VM
 * stay one resource, and match the VM as burnrate's inventory keys it. Other clouds' ids are kept
 * as written (an EC2 id or a GCP name is case-sensitive).
 */
function azureIdsInLowerCase(idSql: string): string {
  // ILIKE tells an Azure id without lowering every id of the file first.
  return `CASE WHEN ${idSql} ILIKE '/subscriptions/%' THEN lower(${idSql}) ELSE ${idSql} END`;
}

/**
 * A split charge (FOCUS 1.3 AllocatedResourceId) belongs to the workload it was split to: its
 * resource is the workload, named by AllocatedResourceName, as AWS's split cost allocation data
 * names the pod rather than the node. (Its owner is looked up in AllocatedTags first: see grouped.)
 */
const ALLOCATED_RESOURCE = `* REPLACE (
    ${azureIdsInLowerCase(`coalesce(nullif(allocated_resource_id, ''), resource_id)`)} AS resource_id,
    CASE WHEN nullif(allocated_resource_id, '') IS NULL THEN resource_name ELSE allocated_resource_name END AS resource_name
  )`;

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

/** Group keys of the daily rows (besides the days, billing period and owner tag). */
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
  'charge_frequency',
  'charge_class',
  'cd_id',
  'cd_status',
  'pricing_currency',
  'extensions',
] as const;

/**
 * Columns that follow from the keys (a resource's name and region, a service's publisher, an
 * account's invoice issuer, a commitment's type): carried along with max() instead of grouped by,
 * which keeps the hash of the first grouping small. max(), not any_value(): where a bill gives one
 * key two values (a renamed resource), every import of the same file keeps the same one, whatever
 * order DuckDB's threads met the lines in.
 */
export const ATTRIBUTES = [
  'resource_name',
  'region',
  'publisher',
  'invoice_issuer',
  'host_provider',
  'cd_type',
  'cd_category',
  'cd_end',
] as const;

/**
 * The text columns of the result, in the order of its one `texts` column: a JSON array per row,
 * which reaches JavaScript as one string instead of thirty (each a call into DuckDB's vectors).
 */
export const TEXT_COLUMNS = ['day', 'billing_period', ...KEYS, ...ATTRIBUTES, 'owner_tag', 'experiment', 'run_id', 'sweep'] as const;

/** Usage that accrues as it is used: what says how fresh the data is (fees and purchases are billed ahead). */
const USAGE_BASED = `charge_category = 'Usage' AND coalesce(charge_frequency, 'Usage-Based') = 'Usage-Based'`;

/** The validation counts of a group: unparsable values, currencies outside ISO 4217, lines over the ceiling. */
const COUNTS = ['bad_billed', 'bad_effective', 'bad_charge_start', 'bad_billing_start', 'bad_currency', 'over_ceiling'] as const;

/** The amounts a charge over several days is spread over them with. */
const AMOUNTS = ['billed', 'effective', 'list_cost', 'contracted_cost', 'pricing_effective', 'usage_hours'] as const;

/** A quantity as an exact decimal, by the 64-bit path where it fits, as the amounts are read (a 128-bit parse of every line costs a tenth of the import). */
const EXACT_QUANTITY = `coalesce(TRY_CAST(consumed_quantity AS DECIMAL(18, 10)), TRY_CAST(consumed_quantity AS DECIMAL(38, 10)))`;

/**
 * Hours of use, where the bill counts use in time (an instance's hours; AWS says Hrs, Google
 * seconds): with the effective cost of the same rows, the instance's billed rate. Summed straight
 * from the file's columns in the first grouping; the spellings are compared as they are (lower()
 * or trim() on every row costs more than the list); parsed only on rows counted in time. Exact
 * decimals, like the amounts: a sum of doubles depends on the order DuckDB's threads add them in,
 * so two imports of one file would store rates differing in their last digits.
 */
const USAGE_HOURS = `CASE
    WHEN consumed_unit IN ('Hours', 'Hour', 'Hrs', 'hours', 'hour', 'hrs', 'Hr', 'hr', 'h') THEN ${EXACT_QUANTITY}
    WHEN consumed_unit IN ('Seconds', 'Second', 'seconds', 'second', 's') THEN CAST(${EXACT_QUANTITY} / 3600 AS DECIMAL(38, 10))
  END`;

/**
 * The one aggregation query of an import. Rows are first grouped by the raw Tags text (few distinct
 * values, and no JSON parsing per row), then the owner tag is computed per group and regrouped.
 * Rows stay apart per file (part), so each can be replaced on its own later. Counts of unparsable
 * values, of currencies outside ISO 4217 (checked per group, not per row) and of cost lines above
 * the sanity ceiling ride along, so validation costs no second pass on the happy path.
 *
 * A charge whose period covers several days (a monthly support fee, an upfront purchase) is spread
 * evenly over the days of its charge period inside its billing period, after the grouping (few
 * groups span days): daily charts, weekly budgets and forecasts see it where it was incurred. The
 * parts are exact decimals and the last day takes the remainder, so they add up to the cent.
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
  const attributes = ATTRIBUTES.map((a) => `max(${a}) AS ${a}`).join(', ');
  // A split charge's tags are the workload's (AllocatedTags) before the shared resource's (Tags);
  // an account's Cost Categories (AWS) come last.
  const tagSql = (keys: readonly string[]) =>
    `coalesce(${ownerTagSql('allocated_tags', keys)}, ${ownerTagSql('tags', keys)}, ${ownerTagSql('cost_categories', keys)})`;
  // The days a charge covers: those of its charge period inside its billing period (the calendar
  // month when the file has no BillingPeriodEnd). A charge of one day, or one entirely outside its
  // billing period, stays whole on its first day.
  const billingEnd = `coalesce(billing_end, date_trunc('month', billing_start) + INTERVAL 1 MONTH)`;
  const chargeDay = 'CAST(charge_start AS DATE)';
  const from = `greatest(charge_start, billing_start)`;
  const to = `least(charge_end, ${billingEnd})`;
  const spans = `CAST(charge_end - INTERVAL 1 MICROSECOND AS DATE) > ${chargeDay} AND ${to} > ${from}`;
  const firstDay = `CASE WHEN ${spans} THEN CAST(${from} AS DATE) ELSE ${chargeDay} END`;
  const lastDay = `CASE WHEN ${spans} THEN CAST(${to} - INTERVAL 1 MICROSECOND AS DATE) ELSE ${chargeDay} END`;
  const days = `(last_day - day + 1)`;
  const share = (amount: string) =>
    `CASE WHEN i = ${days} - 1 THEN ${amount} - CAST(${amount} / ${days} AS DECIMAL(38, 10)) * (${days} - 1) ELSE CAST(${amount} / ${days} AS DECIMAL(38, 10)) END`;
  return `
WITH source AS (
  SELECT ${ALLOCATED_RESOURCE} FROM (
${source}
  )
),
by_tags AS (
  SELECT part, ${firstDay} AS day, ${lastDay} AS last_day, CAST(billing_start AS DATE) AS billing_day, ${keys}, tags, allocated_tags, cost_categories,
    ${attributes},
    ${AMOUNTS.map((a) => `sum(${a === 'usage_hours' ? USAGE_HOURS : a}) AS ${a}`).join(', ')},
    max(charge_end) FILTER (WHERE ${USAGE_BASED}) AS usage_through, max(charge_start) AS latest_start,
    count(*) - count(billed) AS bad_billed, count(*) - count(effective) AS bad_effective,
    count(*) - count(charge_start) AS bad_charge_start, count(*) - count(billing_start) AS bad_billing_start,
    count(*) - count(currency) AS bad_currency, count(*) AS lines,
    count(*) FILTER (WHERE abs(billed) > ${ceiling} OR abs(effective) > ${ceiling}) AS over_ceiling
  FROM source
  GROUP BY ALL
),
grouped AS (
  SELECT part, day, last_day, billing_day, ${keys},
    ${attributes},
    ${tagSql(tagKeys)} AS owner_tag,
    ${tagSql(['name'])} AS name_tag,
    ${tagSql(unitTagKeys ? [unitTagKeys.experiment] : [])} AS experiment,
    ${tagSql(unitTagKeys ? [unitTagKeys.run] : [])} AS run_id,
    ${tagSql(unitTagKeys ? [unitTagKeys.sweep] : [])} AS sweep,
    ${AMOUNTS.map((a) => `sum(${a}) AS ${a}`).join(', ')},
    max(usage_through) AS usage_through, max(latest_start) AS latest_start,
    sum(bad_billed) AS bad_billed, sum(bad_effective) AS bad_effective,
    sum(bad_charge_start) AS bad_charge_start, sum(bad_billing_start) AS bad_billing_start,
    sum(bad_currency) + sum(CASE WHEN currency IS NULL OR ${isoCurrencySql('currency')} THEN 0 ELSE lines END) AS bad_currency,
    sum(over_ceiling) AS over_ceiling
  FROM by_tags
  GROUP BY ALL
),
spread AS (
  SELECT *, unnest(range(CAST(coalesce(${days}, 1) AS BIGINT))) AS i FROM grouped
)
SELECT part, CAST(json_array(${TEXT_COLUMNS.map((c) => TEXT_SQL[c] ?? c).join(', ')}) AS VARCHAR) AS texts,
  ${AMOUNTS.map((a) => `CAST(${share(a)} AS DOUBLE) AS ${a}`).join(', ')},
  CASE WHEN i = 0 THEN CAST(epoch_ms(usage_through) AS DOUBLE) END AS usage_through,
  CASE WHEN i = 0 THEN CAST(epoch_ms(latest_start) AS DOUBLE) END AS latest_start,
  ${COUNTS.map((c) => `CASE WHEN i = 0 THEN CAST(${c} AS DOUBLE) ELSE 0 END AS ${c}`).join(', ')}
FROM spread`;
}

/** The text columns computed in the result's last step; the others are the grouping's as they are. */
const TEXT_SQL: Partial<Record<(typeof TEXT_COLUMNS)[number], string>> = {
  day: `strftime(day + CAST(i AS INTEGER), '%Y-%m-%d')`,
  billing_period: `strftime(billing_day, '%Y-%m')`,
  resource_name: 'coalesce(resource_name, name_tag)',
};

export function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

export function sqlIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
