/**
 * The savings ledger: what each action taken through burnrate was expected to save, and what the
 * bill later confirms it saved.
 */

/** What saved: a Stop, a sweep's Stop, an approved spot migration, a review line answered "Right-size". */
export type SavingAction = 'instance.stop' | 'sweep.stop' | 'spot.approve' | 'review.right-size';

/** One resource an action changed, with what it cost a day as the action saw it (USD, list or billed rate). */
export interface SavingEntry {
  action: SavingAction;
  /** The finding, sweep crossing or migration acted on: with action and resource, the entry's identity. */
  ref: string;
  resourceId: string;
  /** The Name tag, else null. */
  name: string | null;
  team: string | null;
  at: Date;
  byUser: string;
  /** What the action saves a day while it holds: a stopped instance's cost a day, a migration's saving a day. */
  expectedDaily: number;
  currency: string;
  /** When the change was undone (a spot migration reverted): the saving ends there. */
  endedAt?: Date;
}

/** Days after an action its saving is counted: a month, after which the fleet has moved on. */
export const SAVING_WINDOW_DAYS = 30;

/** Days before an action whose bill gives the run rate it is measured against. */
export const BASELINE_DAYS = 7;

/** One entry of the ledger over a period, with what the bill confirms. */
export interface SavingLine extends SavingEntry {
  /** Expected over the days of the period inside the entry's window. */
  expected: number;
  /** The bill's daily average over the BASELINE_DAYS before the action; null when it billed nothing then. */
  baselineDaily: number | null;
  /** Baseline − billed, day by day (never below 0), over the billed days of the period inside the window; null when the bill cannot say. */
  realised: number | null;
  /** Billed days that confirmed it. */
  confirmedDays: number;
  /** Why realised is null, or what it rests on. */
  note: string;
}

export interface SavingsLedger {
  period: { start: string; end: string };
  currency: string;
  lines: SavingLine[];
  realised: number;
  expected: number;
  /** The last day the bill covers (exclusive), or null before any import. */
  billedThrough: string | null;
}
