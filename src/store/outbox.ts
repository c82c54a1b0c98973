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
