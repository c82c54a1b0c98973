import type { KubeSplitCost } from './kube-usage.js';
/** Spend that has no ownership tag at all. */
export const UNTAGGED = '(untagged)';
/** Spend whose ownership tag names no configured team; the raw value is kept in `ownerTag`. */
export const UNMAPPED = '(unmapped)';

/**
 * One pre-aggregated line of daily spend, whatever the source (FOCUS file, cloud API, demo).
 * Amounts are in `currency`; `day` is the UTC calendar day of the charge period start.
 */
export interface SpendRow {
  day: string; // YYYY-MM-DD
  billingPeriod: string; // YYYY-MM of the billing period the charge belongs to
  team: string; // team id, UNTAGGED or UNMAPPED
  ownerTag: string | null; // raw ownership tag value, as found
  provider: string;
  billingAccount: string | null;
  subAccount: string | null;
  service: string;
  serviceCategory: string | null;
  resourceId: string | null;
  chargeCategory: string;
  pricingCategory: string | null;
  currency: string;
  billed: number;
  effective: number;
  /** FOCUS ChargeFrequency: Usage-Based, Recurring or One-Time; null when the source does not say. */
  chargeFrequency?: string | null;
  /** FOCUS ChargeClass: 'Correction' for a charge correcting an earlier billing period, else null. */
  chargeClass?: string | null;
  /** FOCUS commitment discount columns: which commitment (Savings Plan, reservation, CUD) covered the charge, and Used or Unused. */
  commitmentDiscountId?: string | null;
  commitmentDiscountType?: string | null;
  commitmentDiscountCategory?: string | null;
  /** When the commitment ends (ISO date-time), where the bill says (CUR exports do; FOCUS has no column for it). */
  commitmentDiscountEnd?: string | null;
  commitmentDiscountStatus?: string | null;
  /** FOCUS ListCost and ContractedCost: the same charge at list and at negotiated prices (null when absent). */
  listCost?: number | null;
  contractedCost?: number | null;
  /** FOCUS PublisherName (a marketplace seller) and InvoiceIssuerName (who sends the invoice). */
  publisher?: string | null;
  invoiceIssuer?: string | null;
  /** FOCUS ResourceName, else the resource's Name tag: shown beside the id. */
  resourceName?: string | null;
  /** FOCUS RegionId. */
  region?: string | null;
  /**
   * FOCUS 1.2 PricingCurrency and PricingCurrencyEffectiveCost: the currency the provider priced the
   * charge in when it bills in another (a JPY invoice of USD prices), and the effective cost in it.
   * Together with EffectiveCost they give the bill's own exchange rate.
   */
  pricingCurrency?: string | null;
  /** FOCUS 1.3 HostProviderName: who hosts a service `provider` sells (a marketplace SaaS), when another. */
  hostProvider?: string | null;
  /** The provider columns a FOCUS source keeps (`dimensions`), as a JSON object: {"x_UsageType": "BoxUsage:p5.48xlarge"}. */
  extensions?: string | null;
  pricingCurrencyEffectiveCost?: number | null;
  /** Hours of use the charge is for, where the bill counts use in time (an instance's hours): gives its billed rate. */
  usageHours?: number | null;
  /** Unit-cost tags (unitCosts.tagKeys): the experiment, training run and sweep the cost belongs to. */
  experiment?: string | null;
  run?: string | null;
  sweep?: string | null;
  /** File exports: the index in `scope.parts` of the file the row was read from. */
  part?: number;
}

/** One file of a file export: what a later import of the same file replaces. */
export interface ExportPart {
  /** The export it belongs to: an AWS Data Exports manifest's export and billing period, or the files imported together. */
  exportId: string;
  /** The file name, without its folder. */
  name: string;
  /** SHA-256 of the file's bytes: the same file imported again replaces itself, whatever its name. */
  contentHash: string;
}

/**
 * What a batch of rows replaces: every stored row of this source whose billing period
 * (and billing account, when given) is listed. Re-importing a period therefore never double counts.
 */
export interface SpendScope {
  source: string;
  billingPeriods: string[]; // YYYY-MM
  billingAccounts?: string[];
  /**
   * Only these days (start included, end excluded, YYYY-MM-DD) instead of whole billing periods:
   * an incremental pull from a cloud API replaces the days it read again and keeps the others.
   */
  days?: { start: string; end: string };
  /**
   * File exports: in the listed billing periods, replace only the earlier rows of these parts
   * (same content, or the same file name in the same export) instead of whole periods, so parts
   * imported one at a time add up. Rows point at their part with `SpendRow.part`.
   */
  parts?: ExportPart[];
  /** Exports imported complete: their earlier parts that are not imported again are replaced too. */
  wholeExports?: string[];
}

export interface SpendBatch {
  scope: SpendScope;
  rows: SpendRow[];
  /**
   * What the bill itself split over Kubernetes pods (AWS split cost allocation data in a CUR): a
   * split of nodes' costs the rows already hold, never spend of its own. Present when the source
   * can carry one (even empty: the earlier split of the same parts or periods is replaced).
   */
  podSplits?: KubeSplitCost[];
  /**
   * How far the batch's usage reaches (ISO timestamp, exclusive): the latest usage charge period
   * end. Fees and purchases billed ahead (a monthly support fee, a one-year upfront purchase) do
   * not count: they say nothing about how fresh the usage is.
   */
  dataThrough: string | null;
  /** What looked wrong without being refused (a cost line above the sanity ceiling), for the log. */
  warnings?: string[];
}

/** What spend is grouped by: a FOCUS dimension, or a provider column a FOCUS source keeps (`dimensions`). */
export type SpendDimension = 'team' | 'service' | 'resource' | 'day' | 'provider' | 'account' | 'region' | ExtensionDimension;

/** Kubernetes splits of spend: the GPU nodes' cost by namespace, or by workload (src/snapshots/kube-cost.ts). */
export const KUBE_DIMENSIONS = ['namespace', 'workload'] as const;
export type KubeDimension = (typeof KUBE_DIMENSIONS)[number];

/** A provider-specific FOCUS column (x_UsageType, x_Operation...): kept when a FOCUS source lists it. */
export type ExtensionDimension = `x_${string}`;

/** The spelling of a provider column name: x_ then letters, digits and underscores. */
export const EXTENSION_DIMENSION = /^x_[A-Za-z0-9_]+$/;

export function isExtensionDimension(name: string): name is ExtensionDimension {
  return EXTENSION_DIMENSION.test(name);
}
