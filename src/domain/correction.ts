/** A correction of charges of an earlier month (FOCUS ChargeClass 'Correction'), per line of the bill it corrects. */
export interface Correction {
  /** The billing period whose invoice carries the correction (YYYY-MM). */
  billingPeriod: string;
  service: string;
  resourceId: string | null;
  resourceName: string | null;
  currency: string;
  billed: number;
  effective: number;
}
