import type { CostKind } from './cost-kind.js';

/**
 * A billing period's spend grouped by what showback needs to tell apart: whose it is, which
 * provider, what kind of charge, and which commitment covered it (used or unused).
 */
export interface InvoiceLine {
  team: string;
  ownerTag: string | null;
  provider: string;
  chargeCategory: string;
  kind: CostKind;
  /** Whether the charge names a resource (support fees and taxes do not). */
  hasResource: boolean;
  commitmentId: string | null;
  /** 'Used' or 'Unused' for charges of a commitment discount, else null. */
  commitmentStatus: string | null;
  currency: string;
  billed: number;
  effective: number;
}
