import type { FittedUsage } from './usage-models.js';
import type { UnusualDay } from './unusual-days.js';

/** How far the chosen model erred a day on the backtest's held-out week. */
export interface ForecastErrors {
  /** Root mean square of the daily errors. */
  spread: number;
  /** Mean daily error: a model that is off in one direction is off every remaining day. */
  bias: number;
}

/**
 * How one forecast was made, from its own numbers: what `explain_figure` tells of a budget's spent
 * figure and its forecast. `parts` add up to the forecast's amount; `spent.days` add up to `parts.spent`.
 */
export interface ForecastWorkings {
  /** Spend so far: the period's days with data (start inclusive, end exclusive) and each day's spend. */
  spent: { read: { start: string; end: string }; days: { day: string; amount: number }[] };
  /** Days of the period after the data's end, which the forecast projects. */
  remainingDays: number;
  /** The days the model was fitted on (the provisional last day, `end`, left out); null without a model. */
  history: { start: string; end: string; days: number } | null;
  /** The level or trend the model projects with; null without a model. */
  fitted: FittedUsage | null;
  errors: ForecastErrors | null;
  /** Days fitted at their weekday's usual amount instead of their own (a runaway job), and how far off they were. */
  unusual: UnusualDay[];
  /**
   * The forecast, part by part: spent so far; usage the model projects for the remaining days; what
   * completes a provisional last day that looks partly loaded; credits that accrue with that usage
   * (negative); fees and charges billed or recurring on the remaining days.
   */
  parts: { spent: number; usageAhead: number; provisionalTopUp: number; creditsWithUsage: number; chargesAhead: number };
}
