export interface CategoryDay {
  day: string;
  category: string;
  effective: number;
}

/** The part of a figure in one currency and billing period, as the store keeps it: converted at that period's rate before any sum. */
export interface Priced {
  currency: string;
  /** Billing period, YYYY-MM. */
  period: string;
}

/** One cost line of a month: a resource, or a service where the bill names no resource. */
export interface CostLine {
  key: string;
  resourceId: string | null;
  /** The resource's name as the bill gives it (FOCUS ResourceName or a Name tag), if any. */
  resourceName?: string | null;
  service: string;
  category: string;
  pricing: string | null;
  effective: number;
}

export type UnitKind = 'experiment' | 'run' | 'sweep';

export interface UnitTotal {
  key: string;
  effective: number;
}
