/** What the bill charged one resource over a period, per team, currency, billing period and covering commitment. */
export interface ResourceCost {
  resourceId: string;
  team: string;
  currency: string;
  /** Billing period (YYYY-MM) of these charges: what their currency is converted at. */
  period: string;
  /** The commitment (Savings Plan, reservation, CUD) that covered these charges, else null. */
  commitmentId: string | null;
  effective: number;
  /** Days of the period with a charge. */
  days: number;
  /** Hours of use the bill counted (null where it counts use otherwise). */
  hours: number | null;
  /** When the commitment ends, where the bill says; else null. */
  commitmentEnd: string | null;
  /** The bill's ProviderName and ResourceName: what names an instance the inventory no longer lists. */
  provider?: string | null;
  resourceName?: string | null;
  /** The bill's RegionId: where a cloud console finds the resource. */
  region?: string | null;
}

/** A commitment's unused part over a period (FOCUS CommitmentDiscountStatus 'Unused'), per currency and billing period. */
export interface UnusedCommitment {
  commitmentId: string;
  currency: string;
  /** Billing period (YYYY-MM) of this part. */
  period: string;
  effective: number;
  /** When the commitment ends, where the bill says; else null. */
  commitmentEnd: string | null;
}

/** What the bill charged one resource on one day, in one currency and billing period. */
export interface ResourceDay {
  resourceId: string;
  day: string;
  currency: string;
  /** Billing period (YYYY-MM) the day's charges were invoiced in. */
  period: string;
  effective: number;
  /** Hours of use the bill counted that day; null where it counts use otherwise. */
  hours: number | null;
}

/** A resource's effective cost and hours of use over some days, in one currency and billing period: its billed rate is effective / hours. */
export interface ResourceHours {
  resourceId: string;
  currency: string;
  /** Billing period (YYYY-MM) of this part. */
  period: string;
  effective: number;
  hours: number;
}
