import type { BudgetOrigin } from './cloud-budget.js';
import type { StaleSource } from './staleness.js';

// The budget listing's shapes: read by snapshots/budget-listing.ts, rendered by templates/budget-list.ts.

/** One budget, wherever it is defined, with spend beside it. */
export interface BudgetLine {
  origin: BudgetOrigin;
  /** The cloud budget's name, or `monthly` / `weekly` for burnrate's own. */
  name: string;
  team: string | null;
  period: string;
  amount: number;
  currency: string;
  /** Spend so far this period: the cloud's own figure (AWS), else burnrate's from its spend data. */
  actual: number | null;
  actualFrom: 'cloud' | 'burnrate' | null;
  forecast: number | null;
  thresholds: number[];
  /** Whether burnrate's budget checks use this budget for the team. */
  drivesAlerts: boolean;
}

export interface BudgetListing {
  budgets: BudgetLine[];
  dataThrough: string | null;
  stale: StaleSource[];
  /** Teams whose spend is in other currencies: those converted (and at what rate) and those without a rate. */
  currencies?: TeamCurrencies[];
}

export interface TeamCurrencies {
  team: string;
  budgetCurrency: string;
  converted: ConvertedCurrency[];
  missing: string[];
}

/** A spend currency converted into the budget's, at what rate and as of when. */
export interface ConvertedCurrency {
  currency: string;
  rate: number;
  asOf: string | null;
}
