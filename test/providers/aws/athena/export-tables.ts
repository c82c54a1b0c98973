import type { ExportValue, FakeAthenaOptions } from '../../../fakes/fake-athena.js';

// AWS Data Exports tables as Glue registers them (lower-case columns, partitioned by
// billing_period), loaded into the fake Athena from line items a test describes.

/** One line item of a test's export, with what the test expects of it. */
export interface LineItem {
  day: string;
  /** The team the test means the line for: what totals are checked against, never read by burnrate. */
  team: string;
  service: string;
  /** Amounts with at most 4 decimals, so the expected sums are exact in ten-thousandths. */
  billed: number;
  /** What the line effectively cost (the amortised rate of covered usage; 0 for a negation). */
  effective: number;
  tags?: Record<string, string>;
  /** FOCUS x_CostCategories. */
  costCategories?: Record<string, string>;
  resource?: string;
  /** CUR 2.0 split cost allocation data of a pod's line (its resource is the pod's ARN): the node, its split and net split cost. */
  split?: { parent: string; cost: number; net?: number };
  /** CUR line item type; FOCUS rows say Usage or Tax by it. */
  type?: 'Usage' | 'Tax' | 'SavingsPlanCoveredUsage' | 'SavingsPlanNegation';
}

const MAP = 'MAP(VARCHAR, VARCHAR)';
const ACCOUNT = '111111111111';

export const FOCUS_TABLE_COLUMNS: FakeAthenaOptions['columns'] = {
  billedcost: 'DOUBLE',
  effectivecost: 'DOUBLE',
  listcost: 'DOUBLE',
  contractedcost: 'DOUBLE',
  billingcurrency: 'VARCHAR',
  billingperiodstart: 'TIMESTAMP',
  billingperiodend: 'TIMESTAMP',
  chargeperiodstart: 'TIMESTAMP',
  chargeperiodend: 'TIMESTAMP',
  chargecategory: 'VARCHAR',
  chargeclass: 'VARCHAR',
  chargefrequency: 'VARCHAR',
  servicename: 'VARCHAR',
  servicecategory: 'VARCHAR',
  providername: 'VARCHAR',
  publishername: 'VARCHAR',
  invoiceissuername: 'VARCHAR',
  billingaccountid: 'VARCHAR',
  subaccountid: 'VARCHAR',
  resourceid: 'VARCHAR',
  resourcename: 'VARCHAR',
  regionid: 'VARCHAR',
  pricingcategory: 'VARCHAR',
  pricingcurrency: 'VARCHAR',
  pricingcurrencyeffectivecost: 'DOUBLE',
  commitmentdiscountid: 'VARCHAR',
  commitmentdiscounttype: 'VARCHAR',
  commitmentdiscountcategory: 'VARCHAR',
  commitmentdiscountstatus: 'VARCHAR',
  consumedquantity: 'DOUBLE',
  consumedunit: 'VARCHAR',
  tags: MAP,
  x_costcategories: MAP,
  billing_period: 'VARCHAR',
};

export const CUR2_TABLE_COLUMNS: FakeAthenaOptions['columns'] = {
  line_item_unblended_cost: 'DOUBLE',
  line_item_line_item_type: 'VARCHAR',
  bill_bill_type: 'VARCHAR',
  line_item_usage_start_date: 'TIMESTAMP',
  line_item_usage_end_date: 'TIMESTAMP',
  bill_billing_period_start_date: 'TIMESTAMP',
  bill_billing_period_end_date: 'TIMESTAMP',
  bill_payer_account_id: 'VARCHAR',
  line_item_usage_account_id: 'VARCHAR',
  line_item_currency_code: 'VARCHAR',
  line_item_product_code: 'VARCHAR',
  product_servicecode: 'VARCHAR',
  line_item_resource_id: 'VARCHAR',
  product_region_code: 'VARCHAR',
  savings_plan_savings_plan_effective_cost: 'DOUBLE',
  savings_plan_savings_plan_a_r_n: 'VARCHAR',
  savings_plan_total_commitment_to_date: 'DOUBLE',
  savings_plan_used_commitment: 'DOUBLE',
  reservation_effective_cost: 'DOUBLE',
  reservation_reservation_a_r_n: 'VARCHAR',
  reservation_unused_amortized_upfront_fee_for_billing_period: 'DOUBLE',
  reservation_unused_recurring_fee: 'DOUBLE',
  line_item_usage_amount: 'DOUBLE',
  savings_plan_end_time: 'VARCHAR',
  reservation_end_time: 'VARCHAR',
  pricing_unit: 'VARCHAR',
  resource_tags: MAP,
  billing_period: 'VARCHAR',
};

/** A CUR 2.0 table whose export includes split cost allocation data. */
export const CUR2_SPLIT_TABLE_COLUMNS: FakeAthenaOptions['columns'] = {
  ...CUR2_TABLE_COLUMNS,
  split_line_item_parent_resource_id: 'VARCHAR',
  split_line_item_split_cost: 'DOUBLE',
  split_line_item_net_split_cost: 'DOUBLE',
};

function periodOf(day: string) {
  const month = day.slice(0, 7);
  const [y, m] = month.split('-').map(Number) as [number, number];
  const next = new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10);
  return { month, start: `${month}-01 00:00:00`, end: `${next} 00:00:00` };
}

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/** A line item as AWS's FOCUS 1.2 export has it. */
export function focusRow(item: LineItem): Record<string, ExportValue> {
  const period = periodOf(item.day);
  const tax = item.type === 'Tax';
  return {
    billedcost: item.billed,
    effectivecost: item.effective,
    listcost: item.billed,
    billingcurrency: 'USD',
    billingperiodstart: period.start,
    billingperiodend: period.end,
    chargeperiodstart: `${item.day} 00:00:00`,
    chargeperiodend: `${nextDay(item.day)} 00:00:00`,
    chargecategory: tax ? 'Tax' : 'Usage',
    chargefrequency: tax ? 'Recurring' : 'Usage-Based',
    servicename: item.service,
    providername: 'AWS',
    invoiceissuername: 'AWS',
    billingaccountid: ACCOUNT,
    subaccountid: '222222222222',
    resourceid: item.resource ?? null,
    regionid: 'us-east-1',
    pricingcategory: tax ? null : 'Standard',
    consumedquantity: item.resource ? 24 : null,
    consumedunit: item.resource ? 'Hrs' : null,
    tags: item.tags ?? null,
    x_costcategories: item.costCategories ?? null,
    billing_period: period.month,
  };
}

/** A line item as a CUR 2.0 export has it. */
export function cur2Row(item: LineItem): Record<string, ExportValue> {
  const period = periodOf(item.day);
  const type = item.type ?? 'Usage';
  return {
    line_item_unblended_cost: item.billed,
    line_item_line_item_type: type,
    bill_bill_type: 'Anniversary',
    line_item_usage_start_date: `${item.day} 00:00:00`,
    line_item_usage_end_date: `${nextDay(item.day)} 00:00:00`,
    bill_billing_period_start_date: period.start,
    bill_billing_period_end_date: period.end,
    bill_payer_account_id: ACCOUNT,
    line_item_usage_account_id: '222222222222',
    line_item_currency_code: 'USD',
    line_item_product_code: item.service,
    product_servicecode: item.service,
    line_item_resource_id: item.resource ?? '',
    product_region_code: 'us-east-1',
    savings_plan_savings_plan_effective_cost: type === 'SavingsPlanCoveredUsage' ? item.effective : 0,
    savings_plan_savings_plan_a_r_n: type.startsWith('SavingsPlan') ? 'arn:aws:savingsplans::111111111111:savingsplan/sp-1' : '',
    line_item_usage_amount: 24,
    pricing_unit: 'Hrs',
    resource_tags: item.tags ?? {},
    billing_period: period.month,
    ...(item.split
      ? {
          split_line_item_parent_resource_id: item.split.parent,
          split_line_item_split_cost: item.split.cost,
          split_line_item_net_split_cost: item.split.net ?? null,
        }
      : {}),
  };
}

/** Each team's billed and effective totals over the items whose day is in [start, end): a plain sum, in ten-thousandths. */
export function expectedTeamTotals(
  items: readonly LineItem[],
  start: string,
  end: string,
): Map<string, { billed: number; effective: number }> {
  const sums = new Map<string, { billed: number; effective: number }>();
  for (const item of items) {
    if (item.day < start || item.day >= end) continue;
    const sum = sums.get(item.team) ?? { billed: 0, effective: 0 };
    sum.billed += Math.round(item.billed * 10_000);
    sum.effective += Math.round(item.effective * 10_000);
    sums.set(item.team, sum);
  }
  return new Map([...sums].map(([team, s]) => [team, { billed: s.billed / 10_000, effective: s.effective / 10_000 }]));
}

/** An amount rounded to ten-thousandths: the store's totals are doubles. */
export function toTenThousandths(amount: number): number {
  return Math.round(amount * 10_000) / 10_000;
}
