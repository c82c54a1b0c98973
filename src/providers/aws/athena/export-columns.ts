import { CUR_COLUMNS, curChargeSql, type CurColumn } from '../../focus/cur-to-focus.js';
import { sqlIdentifier } from '../../focus/focus-sql.js';

// Where each value a spend row needs is in an AWS Data Exports table, as Athena (Trino) SQL over one
// line item. Glue keeps column names lower-case, and Athena matches identifiers without case.

/** Which export a table holds. */
export type ExportFormat = 'focus' | 'cur2';

/** The SQL of one line item's values, by the names the aggregation gives them. */
export interface ExportColumns {
  /** When the charge starts (a timestamp): its day, and the day range read. */
  chargeStart: string;
  billingStart: string;
  /** Group keys. */
  account: string;
  provider: string;
  subAccount: string;
  service: string;
  serviceCategory: string;
  resourceId: string;
  chargeCategory: string;
  pricingCategory: string;
  currency: string;
  chargeFrequency: string;
  chargeClass: string;
  commitmentId: string;
  commitmentStatus: string;
  pricingCurrency: string;
  /** Carried along with the keys they follow from. */
  resourceName: string;
  region: string;
  publisher: string;
  invoiceIssuer: string;
  commitmentType: string;
  commitmentCategory: string;
  commitmentEnd: string;
  /** Amounts, DECIMAL(38, 10) so their sums are exact to the cent. */
  billed: string;
  effective: string;
  listCost: string;
  contractedCost: string;
  pricingEffective: string;
  /** Hours of use where the bill counts use in time (a double). */
  usageHours: string;
  /** The tag maps the ownership tag is looked up in, in order. */
  tagMaps: readonly string[];
  /** A tag key as the configured spelling (user:team) is found in those maps. */
  tagKeyInMap(key: string): string;
}

const DECIMAL = (sql: string) => `CAST(${sql} AS DECIMAL(38, 10))`;
const NULL_TEXT = 'CAST(NULL AS VARCHAR)';
const NULL_DECIMAL = DECIMAL('NULL');

/** The spellings of "hours" and "seconds" in consumed units, as the FOCUS import counts them. */
const HOURS = "('Hours', 'Hour', 'Hrs', 'hours', 'hour', 'hrs', 'Hr', 'hr', 'h')";
const SECONDS = "('Seconds', 'Second', 'seconds', 'second', 's')";

function usageHoursSql(unit: string, quantity: string): string {
  return `CASE WHEN ${unit} IN ${HOURS} THEN CAST(${quantity} AS DOUBLE) WHEN ${unit} IN ${SECONDS} THEN CAST(${quantity} AS DOUBLE) / 3600 END`;
}

/** FOCUS 1.2 with AWS's columns: the FOCUS names, lower-case. */
function focusColumns(): ExportColumns {
  const c = (name: string) => sqlIdentifier(name.toLowerCase());
  return {
    chargeStart: c('ChargePeriodStart'),
    billingStart: c('BillingPeriodStart'),
    account: c('BillingAccountId'),
    provider: c('ProviderName'),
    subAccount: c('SubAccountId'),
    service: c('ServiceName'),
    serviceCategory: c('ServiceCategory'),
    resourceId: `nullif(${c('ResourceId')}, '')`,
    chargeCategory: c('ChargeCategory'),
    pricingCategory: c('PricingCategory'),
    currency: c('BillingCurrency'),
    chargeFrequency: c('ChargeFrequency'),
    chargeClass: c('ChargeClass'),
    commitmentId: c('CommitmentDiscountId'),
    commitmentStatus: c('CommitmentDiscountStatus'),
    pricingCurrency: c('PricingCurrency'),
    resourceName: c('ResourceName'),
    region: c('RegionId'),
    publisher: c('PublisherName'),
    invoiceIssuer: c('InvoiceIssuerName'),
    commitmentType: c('CommitmentDiscountType'),
    commitmentCategory: c('CommitmentDiscountCategory'),
    // FOCUS has no column for when a commitment ends.
    commitmentEnd: NULL_TEXT,
    billed: DECIMAL(c('BilledCost')),
    effective: DECIMAL(c('EffectiveCost')),
    listCost: DECIMAL(c('ListCost')),
    contractedCost: DECIMAL(c('ContractedCost')),
    pricingEffective: DECIMAL(c('PricingCurrencyEffectiveCost')),
    usageHours: usageHoursSql(c('ConsumedUnit'), c('ConsumedQuantity')),
    // The account's Cost Categories after the resource's tags, as the FOCUS import reads them.
    tagMaps: [c('Tags'), c('x_CostCategories')],
    tagKeyInMap: (key) => key,
  };
}

/** CUR 2.0: snake_case columns, mapped to FOCUS values by the same rules as CUR files. */
function cur2Columns(): ExportColumns {
  const c = (key: CurColumn) => sqlIdentifier(CUR_COLUMNS[key][0]);
  const text = (key: CurColumn) => `CAST(${c(key)} AS VARCHAR)`;
  const charge = curChargeSql({
    text,
    amount: (key) => `coalesce(TRY_CAST(${c(key)} AS DECIMAL(38, 10)), 0)`,
    billed: DECIMAL(c('unblended')),
    zero: DECIMAL('0'),
    cost: (decimal) => decimal,
    hasServiceCode: true,
  });
  const usage = `${charge.type} IN ('Usage', 'DiscountedUsage', 'SavingsPlanCoveredUsage')`;
  return {
    chargeStart: c('start'),
    billingStart: c('billingStart'),
    account: text('payer'),
    provider: "'AWS'",
    subAccount: text('usageAccount'),
    service: charge.service,
    serviceCategory: NULL_TEXT,
    resourceId: `nullif(${text('resource')}, '')`,
    chargeCategory: charge.category,
    pricingCategory: NULL_TEXT,
    currency: text('currency'),
    chargeFrequency: charge.frequency,
    chargeClass: NULL_TEXT,
    commitmentId: charge.commitment,
    commitmentStatus: charge.status,
    pricingCurrency: NULL_TEXT,
    resourceName: NULL_TEXT,
    region: text('region'),
    publisher: NULL_TEXT,
    invoiceIssuer: "'AWS'",
    commitmentType: NULL_TEXT,
    commitmentCategory: NULL_TEXT,
    commitmentEnd: `CASE WHEN ${charge.type} LIKE 'SavingsPlan%' THEN nullif(${text('spEnd')}, '') WHEN ${charge.type} IN ('DiscountedUsage', 'RIFee') THEN nullif(${text('riEnd')}, '') END`,
    billed: DECIMAL(c('unblended')),
    effective: charge.effective,
    listCost: NULL_DECIMAL,
    contractedCost: NULL_DECIMAL,
    pricingEffective: NULL_DECIMAL,
    // Hours are counted once: on the usage line itself, not on the negation that offsets its cost.
    usageHours: `CASE WHEN ${usage} THEN ${usageHoursSql(text('pricingUnit'), c('usageAmount'))} END`,
    tagMaps: [sqlIdentifier('resource_tags')],
    // CUR 2.0 spells AWS's user tags user_team where FOCUS says user:team.
    tagKeyInMap: (key) => key.replace(/^user:/, 'user_'),
  };
}

export function exportColumns(format: ExportFormat): ExportColumns {
  return format === 'focus' ? focusColumns() : cur2Columns();
}
