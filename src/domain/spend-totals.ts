import type { CostKind } from './cost-kind.js';
import type { Period } from './period.js';

export interface SpendFilter {
  period: Period;
  /** Only these teams; undefined means every team, including (untagged) and (unmapped). */
  teams?: readonly string[];
  /**
   * `charge` (default): spend on the days it was incurred in the period; `invoice`: spend of the
   * billing periods (months) the period covers, as the invoices say, whatever its charge days.
   */
  basis?: SpendBasis;
  /** Split each key's totals by billing period too, so that each part is converted at its own period's rate. */
  byPeriod?: boolean;
}

export type SpendBasis = 'charge' | 'invoice';

export interface SpendTotal {
  key: string;
  billed: number;
  effective: number;
  /** Grouped by resource: the resource's name as the bill gives it (ResourceName), where it does. */
  name?: string;
}

/** A total of one key in one currency, as the store keeps them: never added across currencies. */
export interface CurrencyTotal extends SpendTotal {
  currency: string;
  /** The billing period (YYYY-MM) of these amounts, where the store was asked to split by it: the rate to convert them at. */
  period?: string;
}

/** A team's spend of one day, in one currency, of one kind of charge (see cost-kind.ts). */
export interface TeamDay {
  team: string;
  day: string;
  currency: string;
  kind: CostKind;
  billed: number;
  effective: number;
}
