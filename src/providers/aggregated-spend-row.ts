import type { SpendRow } from '../domain/spend.js';
import type { PullContext } from '../ports/pull-context.js';

/**
 * One row of the import's aggregation, whichever engine ran it: DuckDB over FOCUS files
 * (focus/focus-sql.ts) or Athena over an AWS Data Exports table (athena/export-query-sql.ts).
 */
export interface AggregatedSpendRow {
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
  charge_frequency: string | null;
  charge_class: string | null;
  cd_id: string | null;
  cd_type: string | null;
  cd_category: string | null;
  cd_end: string | null;
  cd_status: string | null;
  publisher: string | null;
  invoice_issuer: string | null;
  resource_name: string | null;
  region: string | null;
  pricing_currency: string | null;
  host_provider?: string | null;
  extensions?: string | null;
  owner_tag: string | null;
  experiment: string | null;
  run_id: string | null;
  sweep: string | null;
  billed: number | null;
  effective: number | null;
  list_cost: number | null;
  contracted_cost: number | null;
  pricing_effective: number | null;
  usage_hours: number | null;
}

/** The spend row of one aggregated row, its owner tag resolved to a team. */
export function spendRowOf(row: AggregatedSpendRow, ctx: Pick<PullContext, 'resolveTeam'>): SpendRow {
  return {
    day: row.day!,
    billingPeriod: row.billing_period!,
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
    chargeFrequency: row.charge_frequency,
    chargeClass: row.charge_class,
    commitmentDiscountId: row.cd_id,
    commitmentDiscountType: row.cd_type,
    commitmentDiscountCategory: row.cd_category,
    commitmentDiscountEnd: row.cd_end,
    commitmentDiscountStatus: row.cd_status,
    listCost: row.list_cost,
    contractedCost: row.contracted_cost,
    publisher: row.publisher,
    invoiceIssuer: row.invoice_issuer,
    resourceName: row.resource_name,
    region: row.region,
    pricingCurrency: row.pricing_currency,
    hostProvider: row.host_provider ?? null,
    extensions: row.extensions ?? null,
    pricingCurrencyEffectiveCost: row.pricing_effective,
    usageHours: row.usage_hours,
    experiment: row.experiment,
    run: row.run_id,
    sweep: row.sweep,
  };
}
