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
  /** When the change was undone (a stopped workload resumed from its alert, a spot migration reverted): the saving ends there. */
  endedAt?: Date;
}

/** Days after an action its saving is counted: a month, after which the fleet has moved on. */
export const SAVING_WINDOW_DAYS = 30;

/** One entry of the ledger over a period, with what the bill confirms. */
export interface SavingLine extends SavingEntry {
  /** Expected over the days of the period inside the entry's window, each weekday at the share the resource ran it before. */
  expected: number;
  /** Days of the period it held: from the day after the action until the window closed or it was undone. */
  days: number;
  /** What ended it before its window closed; null while it holds. */
  endedBy: 'resumed' | 'reverted' | 'restarted' | 'acted on again' | null;
  /** The resource's weekday profile before the action, as a day on average; null when it billed nothing then. */
  baselineDaily: number | null;
  /** The weekday's baseline − billed, day by day (never below 0), over the confirmed billed days inside the window; null when the bill cannot say. */
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
  /** How expected and realised are computed, in words, for whoever reads the figures. */
  basis: { expected: string; realised: string };
  /** Currencies of the resources' charges with no rate to `currency`: not in any baseline, named to the reader. */
  missing?: string[];
}

/** The ledger in one line, as the review and App Home show it. */
export interface SavingsSummary {
  currency: string;
  realised: number;
  expected: number;
  actions: number;
  /** As the ledger's `missing`; absent in reviews stored before it was kept. */
  missing?: string[];
}
