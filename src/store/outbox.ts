import type { Message } from '../../templates/message.js';
import type { OutboxDraft, OutboxFailure, OutboxItem, OutboxSummary } from './outbox-records.js';

export interface OutboxStore {
  /** Enqueues unless an item with the same dedupe key exists: a retry of a job sends nothing twice. */
  enqueue(items: OutboxDraft[], now: Date): Promise<number>;
  /** Items due now (pending, attempt time reached, parent sent), without claiming them. */
  due(now: Date, limit?: number): Promise<OutboxItem[]>;
  /**
   * Leases the next due item to `owner` for `leaseMs`, atomically: status 'sending'. An item whose
   * lease expired (its delivery crashed or stalled) is taken over, in doubt. Lease times are read
   * and written on the database's clock, never the replica's: a replica whose clock runs ahead
   * (or a BURNRATE_NOW) cannot take over a lease another still holds. `now` (the replica's time)
   * only decides which pending items are due. Only items for `platforms` (those running here);
   * null when none is due.
   */
  claimNext(owner: string, now: Date, leaseMs: number, platforms: readonly string[]): Promise<OutboxItem | null>;
  /** Marks a leased item sent; false when the lease was lost to another delivery meanwhile. */
  markSent(id: number, owner: string, ref: string | null, now: Date, options?: { suspectedDuplicate?: boolean }): Promise<boolean>;
  /** Records a failed attempt of a leased item; false when the lease was lost to another delivery meanwhile. */
  markRetry(id: number, owner: string, failure: OutboxFailure): Promise<boolean>;
  /** Gives a leased item back unattempted, due again at `nextAttemptAt` (its method is throttled). */
  release(id: number, owner: string, nextAttemptAt: Date): Promise<void>;
  /**
   * Extends the lease of an item this delivery still holds by `leaseMs` from the database's now
   * (right before every post); false when it was taken over meanwhile: then this delivery must not
   * post it.
   */
  renewLease(id: number, owner: string, leaseMs: number): Promise<boolean>;
  /**
   * Counts an item as a suspected duplicate whoever holds it now: a post went out after its lease
   * was lost (the process stalled between its last lease check and the post), unverifiable.
   */
  markSuspectedDuplicate(id: number): Promise<void>;
  /**
   * When the next item `claimNext` could return falls due (for `platforms`, parent sent), or null
   * when none waits: an item waiting for its parent is due when the parent is sent, not before.
   * With `now` (the caller's clock), a lease's end, kept on the database's clock, is given on the
   * caller's: a replica whose clock runs ahead would otherwise find it already past and wake in a
   * loop until the lease really ends.
   */
  nextAttemptAt(platforms: readonly string[], now?: Date): Promise<Date | null>;
  summary(): Promise<OutboxSummary>;
  /** Failed items, newest first. */
  failed(limit?: number): Promise<OutboxItem[]>;
  /** Queues failed items again (all, or those ids), with a fresh retry budget; returns how many. */
  retryFailed(now: Date, ids?: readonly number[]): Promise<number>;
  /** Key of the first message of an alert group on a platform, if one was queued. */
  threadRoot(groupKey: string, platform: string): Promise<string | null>;
}

/** An outbox row as both stores return it (times ISO text, flags 0/1), with its parent's ref. */
export interface OutboxRow {
  id: number;
  dedupe_key: string;
  target: string;
  message: string;
  status: OutboxItem['status'];
  attempts: number;
  next_attempt_at: string;
  ref: string | null;
  last_error: string | null;
  op: OutboxItem['op'];
  parent_ref: string | null;
  in_doubt: number;
  first_attempt_at: string | null;
  first_failure_at: string | null;
}

// The steps of a delivery after its claim, written once: each names the lease's owner,
// so a delivery that lost its lease changes nothing. A suspected duplicate stays counted once
// counted: the copy an earlier attempt (or a stalled delivery) may have posted is still there.
export const MARK_SENT = `UPDATE outbox SET status = 'sent', ref = ?, sent_at = ?, attempts = attempts + 1, last_error = NULL,
    lease_owner = NULL, lease_until = NULL, in_doubt = 0, suspected_duplicate = CASE WHEN ? = 1 THEN 1 ELSE suspected_duplicate END
  WHERE id = ? AND status = 'sending' AND lease_owner = ?`;
export const MARK_RETRY = `UPDATE outbox SET status = ?, attempts = attempts + 1, last_error = ?, next_attempt_at = ?, lease_owner = NULL,
    lease_until = NULL, in_doubt = ?, first_failure_at = coalesce(first_failure_at, ?)
  WHERE id = ? AND status = 'sending' AND lease_owner = ?`;
/** MARK_RETRY's parameters for a failed attempt; the error kept to 500 characters. */
export function markRetryValues(id: number, owner: string, failure: OutboxFailure): unknown[] {
  return [
    failure.giveUp ? 'failed' : 'pending',
    failure.error.slice(0, 500),
    failure.nextAttemptAt.toISOString(),
    failure.inDoubt ? 1 : 0,
    failure.now.toISOString(),
    id,
    owner,
  ];
}
export const RELEASE = `UPDATE outbox SET status = 'pending', next_attempt_at = ?, lease_owner = NULL, lease_until = NULL
  WHERE id = ? AND status = 'sending' AND lease_owner = ?`;
/** `until` is the dialect's expression of the database's now plus the lease, with ? the lease in ms. */
export const MARK_SUSPECTED_DUPLICATE = `UPDATE outbox SET suspected_duplicate = 1 WHERE id = ?`;

export function toOutboxItem(row: OutboxRow): OutboxItem {
  return {
    id: row.id,
    dedupeKey: row.dedupe_key,
    target: row.target,
    message: JSON.parse(row.message) as Message,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    ref: row.ref,
    lastError: row.last_error,
    op: row.op,
    parentRef: row.parent_ref,
    inDoubt: row.in_doubt === 1,
    firstAttemptAt: row.first_attempt_at,
    firstFailureAt: row.first_failure_at,
  };
}

/** The earlier of a pending item's due time and a lease's end moved from the database's clock to `now`'s. */
export function nextDue(pending: string | null, leaseEnd: string | null, dbNow: Date, now: Date | undefined): Date | null {
  const lease = leaseEnd === null ? null : Date.parse(leaseEnd) + (now ? now.getTime() - dbNow.getTime() : 0);
  const times = [pending === null ? null : Date.parse(pending), lease].filter((t): t is number => t !== null);
  return times.length === 0 ? null : new Date(Math.min(...times));
}
