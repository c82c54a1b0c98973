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
  /** Count each total's bill rows too (rowCount): what explaining a figure shows. */
  countRows?: boolean;
}

export type SpendBasis = 'charge' | 'invoice';

export interface SpendTotal {
  key: string;
  billed: number;
  effective: number;
  /** Grouped by resource: the resource's name as the bill gives it (ResourceName), where it does. */
  name?: string;
  /** Grouped by resource: its cloud console page, where its cloud has one. */
  link?: string;
}

/** A total of one key in one currency, as the store keeps them: never added across currencies. */
export interface CurrencyTotal extends SpendTotal {
  currency: string;
  /** The billing period (YYYY-MM) of these amounts, where the store was asked to split by it: the rate to convert them at. */
  period?: string;
  /** How many rows of the bill (daily rows) these amounts add up, where the store was asked to count them. */
  rowCount?: number;
}

/** One currency and billing period of a figure: its own amounts, the rate it was converted at, and what it adds. */
export interface TotalsPart {
  currency: string;
  /** The billing period (YYYY-MM), whose rate converted it. */
  billingPeriod: string;
  /** Bill rows (daily rows) added up. */
  rows: number;
  /** In its own currency. */
  billed: number;
  effective: number;
  /** One unit of `currency` in the figure's currency at that period's rate; null: no rate, left out of the figure. */
  rate: number | null;
  /** What it adds to the figure, in the figure's currency (0 when left out). */
  adds: { billed: number; effective: number };
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
