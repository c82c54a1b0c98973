import type Database from 'better-sqlite3';
import { forSqlite } from './sql-params.js';
import type { Message } from '../../../templates/message.js';
import type { OutboxDraft, OutboxFailure, OutboxItem, OutboxSummary } from '../outbox-records.js';

export interface OutboxStore {
  /** Enqueues unless an item with the same dedupe key exists: a retry of a job sends nothing twice. */
  enqueue(items: OutboxDraft[], now: Date): Promise<number>;
  /** Items due now (pending, attempt time reached, parent sent), without claiming them. */
  due(now: Date, limit?: number): Promise<OutboxItem[]>;
  /**
   * Leases the next due item to `owner` until `leaseUntil`, atomically: status 'sending'. An item
   * whose lease expired (its delivery crashed) is taken over, in doubt. Only items for `platforms`
   * (those running here); null when none is due.
   */
  claimNext(owner: string, now: Date, leaseUntil: Date, platforms: readonly string[]): Promise<OutboxItem | null>;
  /** Marks a leased item sent; false when the lease was lost to another delivery meanwhile. */
  markSent(id: number, owner: string, ref: string | null, now: Date, options?: { suspectedDuplicate?: boolean }): Promise<boolean>;
  markRetry(id: number, owner: string, failure: OutboxFailure): Promise<void>;
  /** Gives a leased item back unattempted, due again at `nextAttemptAt` (its method is throttled). */
  release(id: number, owner: string, nextAttemptAt: Date): Promise<void>;
  /**
   * Extends the lease of an item this delivery still holds (before a post that follows a long
   * look-up); false when it was taken over meanwhile: then this delivery must not post it.
   */
  renewLease(id: number, owner: string, leaseUntil: Date): Promise<boolean>;
  /**
   * When the next item `claimNext` could return falls due (for `platforms`, parent sent), or null
   * when none waits: an item waiting for its parent is due when the parent is sent, not before.
   */
  nextAttemptAt(platforms: readonly string[]): Promise<Date | null>;
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

// The steps of a delivery after its claim, the same on both stores: each names the lease's owner,
// so a delivery that lost its lease changes nothing.
export const MARK_SENT = `UPDATE outbox SET status = 'sent', ref = $1, sent_at = $2, attempts = attempts + 1, last_error = NULL,
    lease_owner = NULL, lease_until = NULL, in_doubt = 0, suspected_duplicate = $3
  WHERE id = $4 AND status = 'sending' AND lease_owner = $5`;
export const MARK_RETRY = `UPDATE outbox SET status = $1, attempts = attempts + 1, last_error = $2, next_attempt_at = $3, lease_owner = NULL,
    lease_until = NULL, in_doubt = $4, first_failure_at = coalesce(first_failure_at, $5)
  WHERE id = $6 AND status = 'sending' AND lease_owner = $7`;
export const RELEASE = `UPDATE outbox SET status = 'pending', next_attempt_at = $1, lease_owner = NULL, lease_until = NULL
  WHERE id = $2 AND status = 'sending' AND lease_owner = $3`;
export const RENEW_LEASE = `UPDATE outbox SET lease_until = $1 WHERE id = $2 AND status = 'sending' AND lease_owner = $3`;

/**
 * What may go now: pending and due, or leased by a delivery whose lease ran out (it crashed). An
 * update or a reply is due only once its parent was sent and so has a platform reference.
 */
const DUE = `FROM outbox o LEFT JOIN outbox p ON p.dedupe_key = o.parent_key
  WHERE ((o.status = 'pending' AND o.next_attempt_at <= @now) OR (o.status = 'sending' AND o.lease_until <= @now))
    AND (o.parent_key IS NULL OR p.status = 'sent')`;

/** Only items of the platforms a delivery runs (a JSON array); the others wait for a process that runs them. */
const ON_PLATFORMS = `substr(o.target, 1, instr(o.target, ':') - 1) IN (SELECT value FROM json_each(@platforms))`;

/**
 * Alerts leave through this table, so a crash or a chat outage loses nothing. Every send is
 * preceded by a lease (claimNext), so two deliveries (two jobs of one process, or two processes on
 * one database file) never post the same item; an immediate transaction makes the lease atomic
 * across processes too.
 */
export class SqliteOutboxStore implements OutboxStore {
  private readonly claim: (owner: string, now: Date, leaseUntil: Date, platforms: readonly string[]) => OutboxRow | undefined;

  constructor(private readonly db: Database.Database) {
    const next = db.prepare(`SELECT o.*, p.ref AS parent_ref ${DUE} AND ${ON_PLATFORMS} ORDER BY o.id LIMIT 1`);
    const lease = db.prepare(
      `UPDATE outbox SET status = 'sending', lease_owner = @owner, lease_until = @until, first_attempt_at = coalesce(first_attempt_at, @now),
         in_doubt = CASE WHEN status = 'sending' THEN 1 ELSE in_doubt END
       WHERE id = @id`,
    );
    const claim = db.transaction((owner: string, now: Date, leaseUntil: Date, platforms: readonly string[]) => {
      const at = now.toISOString();
      const row = next.get({ now: at, platforms: JSON.stringify(platforms) }) as OutboxRow | undefined;
      if (!row) return undefined;
      lease.run({ id: row.id, owner, until: leaseUntil.toISOString(), now: at });
      // A lease taken over from a delivery that died mid-post: that post may have gone out.
      return {
        ...row,
        status: 'sending' as const,
        in_doubt: row.status === 'sending' ? 1 : row.in_doubt,
        first_attempt_at: row.first_attempt_at ?? at,
      };
    });
    this.claim = (owner, now, leaseUntil, platforms) => claim.immediate(owner, now, leaseUntil, platforms);
  }

  async enqueue(items: OutboxDraft[], now: Date): Promise<number> {
    return this.db.transaction(() => enqueueOutbox(this.db, items, now))();
  }

  async due(now: Date, limit = 100): Promise<OutboxItem[]> {
    const rows = this.db
      .prepare(`SELECT o.*, p.ref AS parent_ref ${DUE} ORDER BY o.id LIMIT @limit`)
      .all({ now: now.toISOString(), limit }) as OutboxRow[];
    return rows.map(toOutboxItem);
  }

  async claimNext(owner: string, now: Date, leaseUntil: Date, platforms: readonly string[]): Promise<OutboxItem | null> {
    const row = this.claim(owner, now, leaseUntil, platforms);
    return row ? toOutboxItem(row) : null;
  }

  async markSent(
    id: number,
    owner: string,
    ref: string | null,
    now: Date,
    options: { suspectedDuplicate?: boolean } = {},
  ): Promise<boolean> {
    const { changes } = this.db.prepare(forSqlite(MARK_SENT)).run(ref, now.toISOString(), options.suspectedDuplicate ? 1 : 0, id, owner);
    return changes === 1;
  }

  async markRetry(id: number, owner: string, failure: OutboxFailure): Promise<void> {
    this.db
      .prepare(forSqlite(MARK_RETRY))
      .run(
        failure.giveUp ? 'failed' : 'pending',
        failure.error.slice(0, 500),
        failure.nextAttemptAt.toISOString(),
        failure.inDoubt ? 1 : 0,
        failure.now.toISOString(),
        id,
        owner,
      );
  }

  async release(id: number, owner: string, nextAttemptAt: Date): Promise<void> {
    this.db.prepare(forSqlite(RELEASE)).run(nextAttemptAt.toISOString(), id, owner);
  }

  async renewLease(id: number, owner: string, leaseUntil: Date): Promise<boolean> {
    const { changes } = this.db.prepare(forSqlite(RENEW_LEASE)).run(leaseUntil.toISOString(), id, owner);
    return changes === 1;
  }

  async nextAttemptAt(platforms: readonly string[]): Promise<Date | null> {
    const row = this.db
      .prepare(
        `SELECT min(CASE o.status WHEN 'pending' THEN o.next_attempt_at ELSE o.lease_until END) AS at
         FROM outbox o LEFT JOIN outbox p ON p.dedupe_key = o.parent_key
         WHERE o.status IN ('pending', 'sending') AND (o.parent_key IS NULL OR p.status = 'sent') AND ${ON_PLATFORMS}`,
      )
      .get({ platforms: JSON.stringify(platforms) }) as { at: string | null };
    return row.at ? new Date(row.at) : null;
  }

  async summary(): Promise<OutboxSummary> {
    const row = this.db
      .prepare(
        `SELECT
           count(*) FILTER (WHERE status = 'pending') AS pending,
           count(*) FILTER (WHERE status = 'pending' AND attempts > 0) AS failing,
           count(*) FILTER (WHERE status = 'sending') AS sending,
           count(*) FILTER (WHERE status = 'sent') AS sent,
           count(*) FILTER (WHERE status = 'failed') AS failed,
           coalesce(sum(suspected_duplicate), 0) AS suspectedDuplicates,
           min(created_at) FILTER (WHERE status IN ('pending', 'sending')) AS oldestPendingAt
         FROM outbox`,
      )
      .get() as OutboxSummary;
    return { ...row };
  }

  async failed(limit = 50): Promise<OutboxItem[]> {
    const rows = this.db
      .prepare(`SELECT o.*, NULL AS parent_ref FROM outbox o WHERE status = 'failed' ORDER BY id DESC LIMIT ?`)
      .all(limit) as OutboxRow[];
    return rows.map(toOutboxItem);
  }

  async retryFailed(now: Date, ids?: readonly number[]): Promise<number> {
    const requeue = this.db.prepare(
      `UPDATE outbox SET status = 'pending', next_attempt_at = ?, first_failure_at = NULL, attempts = 0, last_error = NULL WHERE status = 'failed' AND (? IS NULL OR id = ?)`,
    );
    const at = now.toISOString();
    return this.db.transaction(() =>
      ids ? ids.reduce((n, id) => n + requeue.run(at, id, id).changes, 0) : requeue.run(at, null, null).changes,
    )();
  }

  async threadRoot(groupKey: string, platform: string): Promise<string | null> {
    const row = this.db
      .prepare('SELECT root_key AS rootKey FROM alert_threads WHERE group_key = ? AND platform = ?')
      .get(groupKey, platform) as { rootKey: string } | undefined;
    return row?.rootKey ?? null;
  }
}

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

/** Inserts drafts, skipping dedupe keys already queued. Runs inside the caller's transaction. */
export function enqueueOutbox(db: Database.Database, items: OutboxDraft[], now: Date): number {
  const insert = db.prepare(
    `INSERT INTO outbox (dedupe_key, target, message, op, parent_key, next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (dedupe_key) DO NOTHING`,
  );
  const thread = db.prepare('INSERT INTO alert_threads (group_key, platform, root_key) VALUES (?, ?, ?) ON CONFLICT DO NOTHING');
  const at = now.toISOString();
  let added = 0;
  for (const item of items) {
    added += insert.run(
      item.dedupeKey,
      item.target,
      JSON.stringify(item.message),
      item.op ?? 'post',
      item.parentKey ?? null,
      at,
      at,
    ).changes;
    const platform = item.target.slice(0, item.target.indexOf(':'));
    for (const group of typeof item.threadOf === 'string' ? [item.threadOf] : (item.threadOf ?? []))
      thread.run(group, platform, item.dedupeKey);
  }
  return added;
}
