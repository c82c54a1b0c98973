import { normaliseTag } from '../../../domain/ownership.js';
import type { UnitTagKeys } from '../../../ports/pull-context.js';
import { sqlIdentifier, sqlString } from '../../focus/focus-sql.js';
import { exportColumns, type ExportColumns, type ExportFormat } from './export-columns.js';

/** What one Athena query reads, and how it groups. */
export interface ExportQuery {
  database: string;
  table: string;
  format: ExportFormat;
  /** Ownership tag keys, first found wins (user:team). */
  tagKeys: readonly string[];
  unitTagKeys?: UnitTagKeys | undefined;
  /** Group by resource id too. */
  resources: boolean;
  /** The billing_period partitions read (YYYY-MM). */
  billingPeriods: readonly string[];
  /** Charges starting from this day (YYYY-MM-DD) on are left out: today is still being billed. */
  before: string;
}

/** One result row of exportAggregationSql, every value as Athena returns it: text, or null. */
export type ExportResultRow = Record<(typeof RESULT_COLUMNS)[number], string | null>;

/** The group keys besides the day and billing period, in the order the query gives them. */
const KEY_COLUMNS = [
  ['account', 'account'],
  ['provider', 'provider'],
  ['sub_account', 'subAccount'],
  ['service', 'service'],
  ['service_category', 'serviceCategory'],
  ['resource_id', 'resourceId'],
  ['charge_category', 'chargeCategory'],
  ['pricing_category', 'pricingCategory'],
  ['currency', 'currency'],
  ['charge_frequency', 'chargeFrequency'],
  ['charge_class', 'chargeClass'],
  ['cd_id', 'commitmentId'],
  ['cd_status', 'commitmentStatus'],
  ['pricing_currency', 'pricingCurrency'],
] as const satisfies readonly (readonly [string, keyof ExportColumns])[];

/** Values that follow from the keys (a resource's name and region): carried with arbitrary() instead of grouped by. */
const ATTRIBUTE_COLUMNS = [
  ['resource_name', 'resourceName'],
  ['region', 'region'],
  ['publisher', 'publisher'],
  ['invoice_issuer', 'invoiceIssuer'],
  ['cd_type', 'commitmentType'],
  ['cd_category', 'commitmentCategory'],
  ['cd_end', 'commitmentEnd'],
] as const satisfies readonly (readonly [string, keyof ExportColumns])[];

const AMOUNT_COLUMNS = [
  ['billed', 'billed'],
  ['effective', 'effective'],
  ['list_cost', 'listCost'],
  ['contracted_cost', 'contractedCost'],
  ['pricing_effective', 'pricingEffective'],
  ['usage_hours', 'usageHours'],
] as const satisfies readonly (readonly [string, keyof ExportColumns])[];

const TAG_COLUMNS = ['owner_tag', 'experiment', 'run_id', 'sweep'] as const;

export const RESULT_COLUMNS = [
  'day',
  'billing_period',
  ...KEY_COLUMNS.map(([name]) => name),
  ...TAG_COLUMNS,
  ...ATTRIBUTE_COLUMNS.map(([name]) => name),
  ...AMOUNT_COLUMNS.map(([name]) => name),
] as const;

/**
 * The import's aggregation, run in Athena over the export table: one row per day, billing period,
 * account, service, resource, charge and commitment, owner tag and currency, with the amounts summed
 * as exact decimals, the same grouping the FOCUS file import makes with DuckDB. Only the listed
 * billing_period partitions are read (Athena bills the bytes it scans), and only charges that started
 * before `before`. A charge keeps the day it started on.
 *
 * Identifiers come from validated config and are quoted; every literal (tag keys, days, periods) is
 * escaped or formatted here.
 */
export function exportAggregationSql(query: ExportQuery): string {
  const columns = exportColumns(query.format);
  const tag = (keys: readonly string[]) => tagValueSql(columns, keys);
  const unit = query.unitTagKeys;
  const projections = [
    `CAST(CAST(${columns.chargeStart} AS DATE) AS VARCHAR) AS day`,
    `substr(CAST(CAST(${columns.billingStart} AS DATE) AS VARCHAR), 1, 7) AS billing_period`,
    ...KEY_COLUMNS.map(
      ([name, key]) => `${name === 'resource_id' && !query.resources ? 'CAST(NULL AS VARCHAR)' : columns[key]} AS ${name}`,
    ),
    `${tag(query.tagKeys)} AS owner_tag`,
    `${tag(unit ? [unit.experiment] : [])} AS experiment`,
    `${tag(unit ? [unit.run] : [])} AS run_id`,
    `${tag(unit ? [unit.sweep] : [])} AS sweep`,
    ...ATTRIBUTE_COLUMNS.map(([name, key]) => `${columns[key]} AS ${name}`),
    ...AMOUNT_COLUMNS.map(([name, key]) => `${columns[key]} AS ${name}`),
  ];
  const keys = ['day', 'billing_period', ...KEY_COLUMNS.map(([name]) => name), ...TAG_COLUMNS];
  return `SELECT ${keys.join(', ')},
  ${ATTRIBUTE_COLUMNS.map(([name]) => `arbitrary(${name}) AS ${name}`).join(', ')},
  ${AMOUNT_COLUMNS.map(([name]) => `sum(${name}) AS ${name}`).join(', ')}
FROM (
  SELECT
    ${projections.join(',\n    ')}
  FROM ${sqlIdentifier(query.database)}.${sqlIdentifier(query.table)}
  WHERE ${sqlIdentifier('billing_period')} IN (${query.billingPeriods.map(periodLiteral).join(', ')})
    AND ${columns.chargeStart} < ${timestampLiteral(query.before)}
) AS line_items
GROUP BY ${keys.join(', ')}`;
}

/**
 * The value of the first of `keys` found in the line item's tag maps (keys compared lower-case and
 * without spaces, as ownership compares them; blank and 'NULL' values count as absent), or NULL.
 * Of two keys differing only in case, the smaller value wins, so a result never depends on map order.
 */
function tagValueSql(columns: ExportColumns, keys: readonly string[]): string {
  const wanted = [...new Set(keys.map((key) => normaliseTag(columns.tagKeyInMap(key))).filter((key) => key !== ''))];
  const lookups = columns.tagMaps.flatMap((map) =>
    wanted.map(
      (key) =>
        `array_min(map_values(map_filter(${map}, (k, v) -> replace(lower(k), ' ', '') = ${sqlString(key)} AND trim(v) <> '' AND upper(trim(v)) <> 'NULL')))`,
    ),
  );
  if (lookups.length === 0) return 'CAST(NULL AS VARCHAR)';
  return `trim(${lookups.length === 1 ? lookups[0] : `coalesce(${lookups.join(', ')})`})`;
}

export function periodLiteral(period: string): string {
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(period)) throw new Error(`not a billing period: ${period}`);
  return sqlString(period);
}

export function timestampLiteral(day: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new Error(`not a day: ${day}`);
  return `TIMESTAMP ${sqlString(`${day} 00:00:00`)}`;
}
