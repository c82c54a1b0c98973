import type { SavingAction, SavingEntry } from '../domain/saving.js';
import type { Session } from './session.js';

export interface SavingsLedgerStore {
  /**
   * Entries of actions taken from `since` (ISO) on: stops and sweep stops as recorded (a Stop ended
   * by the Resume clicked on the same alert), spot
   * migrations as migrated (their saving a day from the recommendation, ended by a revert), and
   * review lines a team answered "Right-size" where the line carried a right-size recommendation
   * (its saving a day; the bill confirms it once the instance runs as the smaller type, and an
   * answer changed since takes the entry back).
   */
  since(since: string): Promise<SavingEntry[]>;
}

/** An entry as both stores' queries return it. */
export interface LedgerRow {
  action: SavingAction;
  ref: string;
  resourceId: string;
  name: string | null;
  team: string | null;
  at: string;
  byUser: string;
  expectedDaily: number;
  currency: string;
  endedAt: string | null;
}

/**
 * When a stopped workload was resumed from the alert it was stopped from (the Resume's claim, taken
 * right before it acted), as the ledger's part of both stores' queries reads it: `s` is the
 * savings_ledger row. Written once for both dialects.
 */
export const RESUMED_AT = `(SELECT r.at FROM instance_actions r
   WHERE s.action = 'instance.stop' AND r.finding_id = s.ref AND r.action = 'workload.resume' AND r.outcome = 'resumed')`;

/** Days in an average month: a migration's monthly saving as a saving a day. */
export const DAYS_PER_MONTH = 365.25 / 12;

/**
 * Entries oldest first; those of one instant (a sweep's stops) in the order they were written:
 * the ledger's own, then migrations, then review lines, each in insertion order (`seq`).
 */
export const SAVINGS_ORDER = 'ORDER BY at, part, seq';

export function entryFromRow(r: LedgerRow): SavingEntry {
  return {
    action: r.action,
    ref: r.ref,
    resourceId: r.resourceId,
    name: r.name,
    team: r.team,
    at: new Date(r.at),
    byUser: r.byUser,
    expectedDaily: r.expectedDaily,
    currency: r.currency,
    ...(r.endedAt ? { endedAt: new Date(r.endedAt) } : {}),
  };
}

/** The ledger entry a completing action writes inside its own transaction; a second completion adds nothing. */
export async function insertSaving(tx: Session, e: SavingEntry): Promise<void> {
  await tx.run(
    `INSERT INTO savings_ledger (action, ref, resource_id, name, team, at, by_user, expected_daily, currency)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (action, ref, resource_id) DO NOTHING`,
    [e.action, e.ref, e.resourceId, e.name, e.team, e.at.toISOString(), e.byUser, e.expectedDaily, e.currency],
  );
}
