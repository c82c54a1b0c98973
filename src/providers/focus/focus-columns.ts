import type { FocusFormat } from './focus-format.js';

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
  // Mandatory in FOCUS; files without it are read as if the billing period were the calendar month.
  { alias: 'billing_end', names: ['BillingPeriodEnd'], required: false, kind: 'timestamp' },
  { alias: 'charge_frequency', names: ['ChargeFrequency'], required: false, kind: 'text' },
  { alias: 'charge_class', names: ['ChargeClass'], required: false, kind: 'text' },
  { alias: 'cd_id', names: ['CommitmentDiscountId'], required: false, kind: 'text' },
  { alias: 'cd_type', names: ['CommitmentDiscountType'], required: false, kind: 'text' },
  { alias: 'cd_category', names: ['CommitmentDiscountCategory'], required: false, kind: 'text' },
  { alias: 'cd_status', names: ['CommitmentDiscountStatus'], required: false, kind: 'text' },
  { alias: 'list_cost', names: ['ListCost'], required: false, kind: 'decimal' },
  { alias: 'contracted_cost', names: ['ContractedCost'], required: false, kind: 'decimal' },
  { alias: 'publisher', names: ['PublisherName'], required: false, kind: 'text' },
  { alias: 'invoice_issuer', names: ['InvoiceIssuerName'], required: false, kind: 'text' },
  { alias: 'resource_name', names: ['ResourceName'], required: false, kind: 'text' },
  { alias: 'region', names: ['RegionId', 'Region'], required: false, kind: 'text' },
  { alias: 'pricing_currency', names: ['PricingCurrency'], required: false, kind: 'text' },
  // FOCUS 1.3: who hosts a service another provider sells (a marketplace SaaS on AWS).
  { alias: 'host_provider', names: ['HostProviderName'], required: false, kind: 'text' },
  // FOCUS 1.3 split cost allocation: a shared resource's charge split over what ran on it (a
  // Kubernetes node's cost over its pods), each part with the workload's id, name and tags.
  { alias: 'allocated_resource_id', names: ['AllocatedResourceId'], required: false, kind: 'text' },
  { alias: 'allocated_resource_name', names: ['AllocatedResourceName'], required: false, kind: 'text' },
  { alias: 'allocated_tags', names: ['AllocatedTags'], required: false, kind: 'json' },
  // AWS's FOCUS export: the account's Cost Categories ({"team": "ml-research"}), where many
  // organisations say who owns an account; read for ownership after the tags.
  { alias: 'cost_categories', names: ['x_CostCategories'], required: false, kind: 'json' },
  { alias: 'pricing_effective', names: ['PricingCurrencyEffectiveCost'], required: false, kind: 'decimal' },
  // How much was used, in what: an instance's hours give its billed rate (effective cost per hour).
  // Read as text and parsed only on rows counted in time (see USAGE_HOURS): most rows never need it.
  { alias: 'consumed_quantity', names: ['ConsumedQuantity'], required: false, kind: 'text' },
  { alias: 'consumed_unit', names: ['ConsumedUnit'], required: false, kind: 'text' },
  // When a commitment ends: not a FOCUS column; the CUR mapping reads it from the Savings Plan or
  // reservation end time, so expiring commitments can be told.
  { alias: 'cd_end', names: ['x_CommitmentDiscountEnd'], required: false, kind: 'text' },
] as const;

export type FocusColumn = (typeof FOCUS_COLUMNS)[number];
export type Alias = FocusColumn['alias'];

/** Where each FOCUS column is in one file: its real name and DuckDB type, or null when absent. */
export interface FocusFileLayout {
  file: string;
  format: FocusFormat;
  /**
   * The SQL a file's rows are read from when it is not FOCUS itself (an AWS CUR export mapped to
   * FOCUS column names); null: the file is read as it is (focusReaderSql).
   */
  reader?: string | null;
  /** The SELECT of a CUR's pod split (AWS split cost allocation data, cur-pod-split.ts), where the export has one. */
  podSplit?: string | null;
  columns: Record<Alias, { name: string; type: string } | null>;
  /** The provider columns kept as dimensions (FocusReadOptions.dimensions), found in this file or not. */
  extensions?: { key: string; column: { name: string; type: string } | null }[];
}

/** The values checked row by row, in the order a bad row is reported. */
export const CHECKS = [
  { alias: 'billed', column: 'BilledCost', problem: 'number' },
  { alias: 'effective', column: 'EffectiveCost', problem: 'number' },
  { alias: 'charge_start', column: 'ChargePeriodStart', problem: 'date' },
  { alias: 'billing_start', column: 'BillingPeriodStart', problem: 'date' },
  { alias: 'currency', column: 'BillingCurrency', problem: 'currency' },
] as const satisfies readonly { alias: Alias; column: string; problem: string }[];
