import type { Period } from './period.js';

export type FindingKind = 'budget.actual' | 'budget.forecast';
export type FindingState = 'new' | 'open' | 'resolved';
export type Cadence = 'monthly' | 'weekly';

/**
 * Something a check found to be true now. Its id is its key: (kind, team, period, threshold), so
 * each threshold alerts once per period and a re-run finds the same finding again.
 */
export interface Finding {
  id: string;
  kind: FindingKind;
  team: string;
  cadence: Cadence;
  period: string; // 2026-11 or 2026-W48
  range: Period;
  threshold: number; // percent of budget
  amount: number; // actual, or forecast at period end
  budget: number;
  currency: string;
  actual: number;
  forecast: Forecast | null;
  dataThrough: string | null;
}

export interface Forecast {
  amount: number;
  /** How it was made, in words a user can check, e.g. "weekday averages of the last 28 days". */
  method: string;
  /** An 80% range around `amount`, when the method gives one. */
  low?: number | undefined;
  high?: number | undefined;
  /** Days fitted at their weekday's usual amount (a runaway job): the day and how far above (+) or below (-) usual it was. */
  excluded?: { day: string; offBy: number }[] | undefined;
}

export interface TrackedFinding extends Finding {
  state: FindingState;
  firstSeen: string;
  lastSeen: string;
  resolvedAt: string | null;
}

export function findingId(kind: FindingKind, team: string, period: string, threshold: number): string {
  return `${kind}:${team}:${period}:${threshold}`;
}
