import { focusReaderSql, sqlIdentifier, sqlString } from './focus-sql.js';

// AWS Cost and Usage Reports read as FOCUS, after the FinOps Foundation's published mapping of CUR
// line items to FOCUS columns (the FOCUS converter's AWS CUR mapping): line item types become
// charge categories and frequencies, unblended cost is billed, and the amortised cost of
// commitment-covered usage (Savings Plan or reservation effective cost) is effective. Two column
// spellings: CUR 2.0 (Data Exports: snake_case, tags in a `resource_tags` map) and the legacy CUR
// (`lineItem/UnblendedCost`, one `resourceTags/user:<key>` column per tag).

export type CurVersion = 'cur2' | 'legacy';

/** The CUR columns the mapping reads, in each spelling. */
export const CUR_COLUMNS = {
  unblended: ['line_item_unblended_cost', 'lineItem/UnblendedCost'],
  type: ['line_item_line_item_type', 'lineItem/LineItemType'],
  billType: ['bill_bill_type', 'bill/BillType'],
  start: ['line_item_usage_start_date', 'lineItem/UsageStartDate'],
  end: ['line_item_usage_end_date', 'lineItem/UsageEndDate'],
  billingStart: ['bill_billing_period_start_date', 'bill/BillingPeriodStartDate'],
  billingEnd: ['bill_billing_period_end_date', 'bill/BillingPeriodEndDate'],
  payer: ['bill_payer_account_id', 'bill/PayerAccountId'],
  usageAccount: ['line_item_usage_account_id', 'lineItem/UsageAccountId'],
  currency: ['line_item_currency_code', 'lineItem/CurrencyCode'],
  productCode: ['line_item_product_code', 'lineItem/ProductCode'],
  serviceCode: ['product_servicecode', 'product/servicecode'],
  resource: ['line_item_resource_id', 'lineItem/ResourceId'],
  region: ['product_region_code', 'product/regionCode', 'product/region'],
  spEffective: ['savings_plan_savings_plan_effective_cost', 'savingsPlan/SavingsPlanEffectiveCost'],
  spArn: ['savings_plan_savings_plan_a_r_n', 'savingsPlan/SavingsPlanARN'],
  spCommitment: ['savings_plan_total_commitment_to_date', 'savingsPlan/TotalCommitmentToDate'],
  spUsed: ['savings_plan_used_commitment', 'savingsPlan/UsedCommitment'],
  riEffective: ['reservation_effective_cost', 'reservation/EffectiveCost'],
  riArn: ['reservation_reservation_a_r_n', 'reservation/ReservationARN'],
  riUnusedUpfront: ['reservation_unused_amortized_upfront_fee_for_billing_period', 'reservation/UnusedAmortizedUpfrontFeeForBillingPeriod'],
  riUnusedRecurring: ['reservation_unused_recurring_fee', 'reservation/UnusedRecurringFee'],
  usageAmount: ['line_item_usage_amount', 'lineItem/UsageAmount'],
  spEnd: ['savings_plan_end_time', 'savingsPlan/EndTime'],
  riEnd: ['reservation_end_time', 'reservation/EndTime'],
  pricingUnit: ['pricing_unit', 'pricing/unit'],
} as const;

export type CurColumn = keyof typeof CUR_COLUMNS;

/** Line item types that accrue with usage: usage, commitment-covered usage and its negation, and discounts on usage. */
const USAGE_TYPES = [
  'Usage',
  'DiscountedUsage',
  'SavingsPlanCoveredUsage',
  'SavingsPlanNegation',
  'BundledDiscount',
  'EdpDiscount',
  'PrivateRateDiscount',
  'Discount',
]
  .map((t) => `'${t}'`)
  .join(', ');

/** What a file's columns say it is: a CUR of either version, or not a CUR. */
export function curVersionOf(columns: readonly string[]): CurVersion | null {
  if (columns.includes('line_item_unblended_cost') && columns.includes('line_item_line_item_type')) return 'cur2';
  if (columns.includes('lineItem/UnblendedCost') && columns.includes('lineItem/LineItemType')) return 'legacy';
  return null;
}

/**
 * The SELECT that reads a CUR file as FOCUS rows: the columns burnrate reads, with FOCUS names.
 * Optional CUR columns a file lacks read as NULL (or 0 for commitment amounts).
 */
export function curToFocusSql(file: string, columns: readonly string[]): string {
  const has = new Set(columns);
  const col = (key: CurColumn): string | null => {
    const name = CUR_COLUMNS[key].find((n) => has.has(n));
    return name ? sqlIdentifier(name) : null;
  };
  const text = (key: CurColumn) => (col(key) ? `CAST(${col(key)} AS VARCHAR)` : 'CAST(NULL AS VARCHAR)');
  const amount = (key: CurColumn) => (col(key) ? `coalesce(TRY_CAST(${col(key)} AS DECIMAL(38, 10)), 0)` : 'CAST(0 AS DECIMAL(38, 10))');
  const billed = `CAST(${col('unblended')} AS VARCHAR)`;
  // Amounts stay text, as in a FOCUS file: the aggregation parses them and reports bad values.
  const { effective, category, frequency, status, commitment, service, type } = curChargeSql({
    text,
    amount,
    billed,
    zero: "'0'",
    cost: (decimal) => `CAST(${decimal} AS VARCHAR)`,
    hasServiceCode: col('serviceCode') !== null,
  });
  // Hours are counted once: on the usage line itself, not on the negation that offsets its cost.
  return `SELECT ${billed} AS BilledCost, ${effective} AS EffectiveCost, ${text('currency')} AS BillingCurrency,
    ${text('billingStart')} AS BillingPeriodStart, ${text('billingEnd')} AS BillingPeriodEnd,
    ${text('start')} AS ChargePeriodStart, ${text('end')} AS ChargePeriodEnd,
    ${category} AS ChargeCategory, ${frequency} AS ChargeFrequency, ${status} AS CommitmentDiscountStatus, ${commitment} AS CommitmentDiscountId,
    ${service} AS ServiceName, 'AWS' AS ProviderName, 'AWS' AS InvoiceIssuerName,
    ${text('payer')} AS BillingAccountId, ${text('usageAccount')} AS SubAccountId, nullif(${text('resource')}, '') AS ResourceId,
    ${text('region')} AS RegionId, ${tagsSql(columns)} AS Tags,
    CASE WHEN ${type} IN ('Usage', 'DiscountedUsage', 'SavingsPlanCoveredUsage') THEN ${text('usageAmount')} END AS ConsumedQuantity,
    ${text('pricingUnit')} AS ConsumedUnit,
    CASE WHEN ${type} LIKE 'SavingsPlan%' THEN nullif(${text('spEnd')}, '') WHEN ${type} IN ('DiscountedUsage', 'RIFee') THEN nullif(${text('riEnd')}, '') END AS x_CommitmentDiscountEnd
  FROM ${focusReaderSql(file)}`;
}

/** How the CUR mapping reads a CUR row: each engine (DuckDB over files, Athena over a table) casts its own way. */
export interface CurRowSql {
  /** A column as text; NULL when the row has no such column. */
  text(key: CurColumn): string;
  /** A column as DECIMAL(38, 10); 0 when absent or empty. */
  amount(key: CurColumn): string;
  /** The billed (unblended) cost, in the type effective costs are given in. */
  billed: string;
  /** Zero in that type. */
  zero: string;
  /** A DECIMAL(38, 10) expression in that type. */
  cost(decimal: string): string;
  /** Whether product_servicecode is there to name the service (else the product code does). */
  hasServiceCode: boolean;
}

/**
 * The FOCUS columns that follow from a CUR line item's type, as SQL both DuckDB and Athena run:
 * effective cost, charge category and frequency, commitment status and id, and the service.
 */
export function curChargeSql(row: CurRowSql) {
  const { text, amount, billed, zero, cost } = row;
  const type = text('type');
  // Effective cost per line item type: covered usage at its amortised rate, negations and upfront
  // fees at 0 (they are in the covered usage already), a recurring commitment fee at its unused part.
  // A reservation's upfront payment is a 'Fee' line with the reservation's ARN: amortised into its
  // DiscountedUsage, so 0 too; any other fee (a support plan) is what it is billed.
  const reservationFee = `${type} = 'Fee' AND nullif(${text('riArn')}, '') IS NOT NULL`;
  const effective = `CASE WHEN ${reservationFee} THEN ${zero} ELSE CASE ${type}
      WHEN 'SavingsPlanCoveredUsage' THEN ${cost(amount('spEffective'))}
      WHEN 'DiscountedUsage' THEN ${cost(amount('riEffective'))}
      WHEN 'SavingsPlanNegation' THEN ${zero}
      WHEN 'SavingsPlanUpfrontFee' THEN ${zero}
      WHEN 'SavingsPlanRecurringFee' THEN ${cost(`greatest(${amount('spCommitment')} - ${amount('spUsed')}, 0)`)}
      WHEN 'RIFee' THEN ${cost(`${amount('riUnusedUpfront')} + ${amount('riUnusedRecurring')}`)}
      ELSE ${billed} END END`;
  const category = `CASE
      WHEN ${type} IN ('Usage', 'DiscountedUsage', 'SavingsPlanCoveredUsage', 'SavingsPlanNegation') THEN 'Usage'
      WHEN ${type} = 'Tax' THEN 'Tax'
      WHEN ${type} IN ('Credit', 'Refund', 'BundledDiscount', 'EdpDiscount', 'PrivateRateDiscount', 'Discount') THEN 'Credit'
      WHEN ${type} IN ('Fee', 'RIFee', 'SavingsPlanRecurringFee', 'SavingsPlanUpfrontFee') THEN 'Purchase'
      ELSE 'Adjustment' END`;
  // ChargeFrequency after the FOCUS converter: from the bill the line is on (bill/BillType: an
  // Anniversary bill is the month's recurring bill; a Purchase or Refund bill is billed once), and
  // from the line item type where the bill says nothing of it: usage and its discounts accrue with
  // usage on any bill, an upfront payment is one-time on any bill, and credits stay one-time (as
  // AWS labels them). Without bill/BillType (older exports), a fee naming a reservation is its
  // upfront payment and any other fee (support) recurs, as Cost Explorer's record types say.
  const billType = `nullif(${text('billType')}, '')`;
  const frequency = `CASE
      WHEN ${type} IN (${USAGE_TYPES}) THEN 'Usage-Based'
      WHEN ${type} IN ('SavingsPlanUpfrontFee', 'Credit', 'Refund') OR ${reservationFee} THEN 'One-Time'
      WHEN ${billType} IN ('Purchase', 'Refund') THEN 'One-Time'
      WHEN ${billType} = 'Anniversary' THEN 'Recurring'
      WHEN ${type} IN ('Fee', 'RIFee', 'SavingsPlanRecurringFee', 'Tax') THEN 'Recurring'
      ELSE 'One-Time' END`;
  const status = `CASE
      WHEN ${type} IN ('SavingsPlanCoveredUsage', 'DiscountedUsage') THEN 'Used'
      WHEN ${type} IN ('SavingsPlanRecurringFee', 'RIFee') THEN 'Unused' END`;
  const commitment = `CASE WHEN ${type} LIKE 'SavingsPlan%' THEN ${text('spArn')} WHEN ${type} IN ('DiscountedUsage', 'RIFee') OR ${reservationFee} THEN ${text('riArn')} END`;
  const service = row.hasServiceCode ? `coalesce(nullif(${text('serviceCode')}, ''), ${text('productCode')})` : text('productCode');
  return { type, effective, category, frequency, status, commitment, service };
}

/**
 * The tags as a FOCUS Tags JSON object, with AWS's user tags spelt as in AWS's own FOCUS export
 * (`user:team`), so the same `ownership.tagKeys` work for FOCUS and CUR files: CUR 2.0's
 * `resource_tags` map (`user_team`), or the legacy CUR's `resourceTags/user:team` columns.
 */
function tagsSql(columns: readonly string[]): string {
  if (columns.includes('resource_tags')) {
    const map = `coalesce(TRY_CAST(resource_tags AS MAP(VARCHAR, VARCHAR)), TRY_CAST(TRY_CAST(CAST(resource_tags AS VARCHAR) AS JSON) AS MAP(VARCHAR, VARCHAR)))`;
    return `CAST(to_json(map_from_entries(list_transform(map_entries(${map}), e -> {'key': regexp_replace(e.key, '^user_', 'user:'), 'value': e.value}))) AS VARCHAR)`;
  }
  const tagColumns = columns.filter((c) => c.startsWith('resourceTags/'));
  if (tagColumns.length === 0) return 'CAST(NULL AS VARCHAR)';
  const pairs = tagColumns.map((c) => `${sqlString(c.slice('resourceTags/'.length))}, nullif(CAST(${sqlIdentifier(c)} AS VARCHAR), '')`);
  // json_object keeps a key with a NULL value; ownership reads JSON null as absent.
  return `CAST(json_object(${pairs.join(', ')}) AS VARCHAR)`;
}
