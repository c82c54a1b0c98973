import type { Dialect, Session, PublicOf } from './session.js';
import type { Message } from '../../templates/message.js';
import type { OutboxDraft, OutboxFailure, OutboxItem, OutboxSummary } from './outbox-records.js';

/** The clock outbox leases are judged by, as SQL: whose clock it is, each dialect says (POSTGRES_LEASE_CLOCK, sqliteLeaseClock). */
export interface LeaseClock {
  /** That time plus `ms`, as the ISO text the outbox's time columns hold: an expression and its parameters. */
  plus(ms: number): { sql: string; params: unknown[] };
}

/**
 * What may go now: pending and due (by the replica's time), or leased by a delivery whose lease ran
 * out by the database's time (it crashed or stalled). An update or a reply is due only once its
 * parent was sent and so has a platform reference. Parameters: the replica's time, the database's.
 */
const due = (dbNow: string) => `FROM outbox o LEFT JOIN outbox p ON p.dedupe_key = o.parent_key
  WHERE ((o.status = 'pending' AND o.next_attempt_at <= ?) OR (o.status = 'sending' AND o.lease_until <= ${dbNow}))
    AND (o.parent_key IS NULL OR p.status = 'sent')`;

export type OutboxStore = PublicOf<SqlOutboxStore>;

/**
 * Alerts leave through this table, so a crash or a chat outage loses nothing. Every send is
 * preceded by a lease (claimNext), so two deliveries (two jobs of one process, two replicas) never
 * post the same item: on Postgres the claim skips rows another claim holds (SKIP LOCKED), on SQLite
 * it runs under the file's write lock. Every later step names the lease's owner, so a delivery that
 * lost its lease (it was slow, another took the item over) changes nothing.
 */
export class SqlOutboxStore {
  constructor(
    private readonly db: Session,
    private readonly clock: LeaseClock,
  ) {}

  /** Enqueues unless an item with the same dedupe key exists: a retry of a job sends nothing twice. */
  async enqueue(items: OutboxDraft[], now: Date): Promise<number> {
    return this.db.transaction((tx) => enqueueOutbox(tx, items, now));
  }

  /** Items due now (pending, attempt time reached, parent sent), without claiming them. */
  async due(now: Date, limit = 100): Promise<OutboxItem[]> {
    const dbNow = this.clock.plus(0);
    const rows = await this.db.rows<OutboxRow>(`SELECT ${item()}, p.ref AS "parentRef" ${due(dbNow.sql)} ORDER BY o.id LIMIT ?`, [
      now.toISOString(),
      ...dbNow.params,
      limit,
    ]);
    return rows.map(toOutboxItem);
  }

  /**
   * Leases the next due item to `owner` for `leaseMs`, atomically: status 'sending'. An item whose
   * lease expired (its delivery crashed or stalled) is taken over, in doubt. Lease times are read
   * and written on the database's clock, never the replica's: a replica whose clock runs ahead
   * (or a BURNRATE_NOW) cannot take over a lease another still holds. `now` (the replica's time)
   * only decides which pending items are due. Only items for `platforms` (those running here);
   * null when none is due.
   */
  async claimNext(owner: string, now: Date, leaseMs: number, platforms: readonly string[]): Promise<OutboxItem | null> {
    const d = this.db.dialect;
    return this.db.transaction(async (tx) => {
      const dbNow = this.clock.plus(0);
      const next = await tx.one<{ id: number; parentRef: string | null }>(
        `SELECT o.id, p.ref AS "parentRef" ${due(dbNow.sql)} AND ${onPlatforms(d)} ORDER BY o.id LIMIT 1 ${d.skipLocked('o')}`,
        [now.toISOString(), ...dbNow.params, d.list(platforms)],
      );
      if (!next) return null;
      // A lease taken over from a delivery that died mid-post is in doubt: that post may have gone
      // out. The first attempt's time is the database's too: a look for a post in doubt starts from it.
      const until = this.clock.plus(leaseMs);
      const started = this.clock.plus(0);
      const row = await tx.one<OutboxRow>(
        `UPDATE outbox SET status = 'sending', lease_owner = ?, lease_until = ${until.sql},
           first_attempt_at = coalesce(first_attempt_at, ${started.sql}), in_doubt = CASE WHEN status = 'sending' THEN 1 ELSE in_doubt END
         WHERE id = ? RETURNING ${item('')}`,
        [owner, ...until.params, ...started.params, next.id],
      );
      return row ? toOutboxItem({ ...row, parentRef: next.parentRef }) : null;
    });
  }

  /** Marks a leased item sent; false when the lease was lost to another delivery meanwhile. */
  async markSent(
    id: number,
    owner: string,
    ref: string | null,
    now: Date,
    options: { suspectedDuplicate?: boolean } = {},
  ): Promise<boolean> {
    // A suspected duplicate stays counted once counted: the copy an earlier attempt may have posted is still there.
    const changed = await this.db.run(
      `UPDATE outbox SET status = 'sent', ref = ?, sent_at = ?, attempts = attempts + 1, last_error = NULL, lease_owner = NULL,
         lease_until = NULL, in_doubt = 0, suspected_duplicate = CASE WHEN ? = 1 THEN 1 ELSE suspected_duplicate END
       WHERE id = ? AND status = 'sending' AND lease_owner = ?`,
      [ref, now.toISOString(), options.suspectedDuplicate ? 1 : 0, id, owner],
    );
    return changed === 1;
  }

  /** Records a failed attempt of a leased item; false when the lease was lost to another delivery meanwhile. */
  async markRetry(id: number, owner: string, failure: OutboxFailure): Promise<boolean> {
    const changed = await this.db.run(
      `UPDATE outbox SET status = ?, attempts = attempts + 1, last_error = ?, next_attempt_at = ?, lease_owner = NULL,
         lease_until = NULL, in_doubt = ?, first_failure_at = coalesce(first_failure_at, ?)
       WHERE id = ? AND status = 'sending' AND lease_owner = ?`,
      [
        failure.giveUp ? 'failed' : 'pending',
        failure.error.slice(0, 500),
        failure.nextAttemptAt.toISOString(),
        failure.inDoubt ? 1 : 0,
        failure.now.toISOString(),
        id,
        owner,
      ],
    );
    return changed === 1;
  }

  /** Gives a leased item back unattempted, due again at `nextAttemptAt` (its method is throttled). */
  async release(id: number, owner: string, nextAttemptAt: Date): Promise<void> {
    await this.db.run(
      `UPDATE outbox SET status = 'pending', next_attempt_at = ?, lease_owner = NULL, lease_until = NULL
       WHERE id = ? AND status = 'sending' AND lease_owner = ?`,
      [nextAttemptAt.toISOString(), id, owner],
    );
  }

  /**
   * Extends the lease of an item this delivery still holds by `leaseMs` from the database's now
   * (right before every post); false when it was taken over meanwhile: then this delivery must not
   * post it.
   */
  async renewLease(id: number, owner: string, leaseMs: number): Promise<boolean> {
    const until = this.clock.plus(leaseMs);
    const changed = await this.db.run(
      `UPDATE outbox SET lease_until = ${until.sql} WHERE id = ? AND status = 'sending' AND lease_owner = ?`,
      [...until.params, id, owner],
    );
    return changed === 1;
  }

  /**
   * Counts an item as a suspected duplicate whoever holds it now: a post went out after its lease
   * was lost (the process stalled between its last lease check and the post), unverifiable.
   */
  async markSuspectedDuplicate(id: number): Promise<void> {
    await this.db.run('UPDATE outbox SET suspected_duplicate = 1 WHERE id = ?', [id]);
  }

  /**
   * When the next item `claimNext` could return falls due (for `platforms`, parent sent), or null
   * when none waits: an item waiting for its parent is due when the parent is sent, not before.
   * With `now` (the caller's clock), a lease's end, kept on the database's clock, is given on the
   * caller's: a replica whose clock runs ahead would otherwise find it already past and wake in a
   * loop until the lease really ends.
   */
  async nextAttemptAt(platforms: readonly string[], now?: Date): Promise<Date | null> {
    const d = this.db.dialect;
    const dbNow = this.clock.plus(0);
    const row = await this.db.one<{ pending: string | null; lease: string | null; db_now: string }>(
      `SELECT min(CASE o.status WHEN 'pending' THEN o.next_attempt_at END) AS pending,
              min(CASE o.status WHEN 'sending' THEN o.lease_until END) AS lease, ${dbNow.sql} AS db_now
       FROM outbox o LEFT JOIN outbox p ON p.dedupe_key = o.parent_key
       WHERE o.status IN ('pending', 'sending') AND (o.parent_key IS NULL OR p.status = 'sent') AND ${onPlatforms(d)}`,
      [...dbNow.params, d.list(platforms)],
    );
    return row ? nextDue(row.pending, row.lease, new Date(row.db_now), now) : null;
  }

  async summary(): Promise<OutboxSummary> {
    const row = await this.db.one<OutboxSummary>(
      `SELECT
         count(*) FILTER (WHERE status = 'pending') AS pending,
         count(*) FILTER (WHERE status = 'pending' AND attempts > 0) AS failing,
         count(*) FILTER (WHERE status = 'sending') AS sending,
         count(*) FILTER (WHERE status = 'sent') AS sent,
         count(*) FILTER (WHERE status = 'failed') AS failed,
         coalesce(sum(suspected_duplicate), 0) AS "suspectedDuplicates",
         min(created_at) FILTER (WHERE status IN ('pending', 'sending')) AS "oldestPendingAt"
       FROM outbox`,
    );
    return { ...row! };
  }

  /** Failed items, newest first. */
  async failed(limit = 50): Promise<OutboxItem[]> {
    const rows = await this.db.rows<OutboxRow>(
      `SELECT ${item()}, NULL AS "parentRef" FROM outbox o WHERE status = 'failed' ORDER BY id DESC LIMIT ?`,
      [limit],
    );
    return rows.map(toOutboxItem);
  }

  /** Queues failed items again (all, or those ids), with a fresh retry budget; returns how many. */
  async retryFailed(now: Date, ids?: readonly number[]): Promise<number> {
    const d = this.db.dialect;
    return this.db.run(
      `UPDATE outbox SET status = 'pending', next_attempt_at = ?, first_failure_at = NULL, attempts = 0, last_error = NULL
       WHERE status = 'failed' ${ids ? `AND ${d.inList('id')}` : ''}`,
      [now.toISOString(), ...(ids ? [d.list(ids)] : [])],
    );
  }

  /** Key of the first message of an alert group on a platform, if one was queued. */
  async threadRoot(groupKey: string, platform: string): Promise<string | null> {
    const row = await this.db.one<{ rootKey: string }>(
      'SELECT root_key AS "rootKey" FROM alert_threads WHERE group_key = ? AND platform = ?',
      [groupKey, platform],
    );
    return row?.rootKey ?? null;
  }
}

/** Only items of the platforms a delivery runs (a list parameter); the others wait for a process that runs them. */
const onPlatforms = (d: Dialect) => d.inList(`substr(o.target, 1, ${d.position('o.target', "':'")} - 1)`);

/** Inserts drafts, skipping dedupe keys already queued. Runs inside the caller's transaction. */
export async function enqueueOutbox(tx: Session, items: OutboxDraft[], now: Date): Promise<number> {
  const at = now.toISOString();
  let added = 0;
  for (const item of items) {
    added += await tx.run(
      `INSERT INTO outbox (dedupe_key, target, message, op, parent_key, next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (dedupe_key) DO NOTHING`,
      [item.dedupeKey, item.target, JSON.stringify(item.message), item.op ?? 'post', item.parentKey ?? null, at, at],
    );
    const platform = item.target.slice(0, item.target.indexOf(':'));
    for (const group of typeof item.threadOf === 'string' ? [item.threadOf] : (item.threadOf ?? []))
      await tx.run('INSERT INTO alert_threads (group_key, platform, root_key) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', [
        group,
        platform,
        item.dedupeKey,
      ]);
  }
  return added;
}

/** An outbox row as read back (times ISO text, flags 0/1), with its parent's ref. */
/** An outbox row under its item's names (`o` the table's alias; '' in RETURNING): its message still JSON, in_doubt 0 or 1. */
const item = (o = 'o.') => `${o}id, ${o}dedupe_key AS "dedupeKey", ${o}target, ${o}message, ${o}status, ${o}attempts,
  ${o}next_attempt_at AS "nextAttemptAt", ${o}ref, ${o}last_error AS "lastError", ${o}op, ${o}in_doubt AS "inDoubt",
  ${o}first_attempt_at AS "firstAttemptAt", ${o}first_failure_at AS "firstFailureAt"`;
type OutboxRow = Omit<OutboxItem, 'message' | 'inDoubt'> & { message: string; inDoubt: number };
const toOutboxItem = (row: OutboxRow): OutboxItem => ({ ...row, message: JSON.parse(row.message) as Message, inDoubt: row.inDoubt === 1 });

/** The earlier of a pending item's due time and a lease's end moved from the database's clock to `now`'s. */
function nextDue(pending: string | null, leaseEnd: string | null, dbNow: Date, now: Date | undefined): Date | null {
  const lease = leaseEnd === null ? null : Date.parse(leaseEnd) + (now ? now.getTime() - dbNow.getTime() : 0);
  const times = [pending === null ? null : Date.parse(pending), lease].filter((t): t is number => t !== null);
  return times.length === 0 ? null : new Date(Math.min(...times));
}
