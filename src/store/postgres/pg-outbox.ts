import {
  MARK_RETRY,
  markRetryValues,
  MARK_SENT,
  MARK_SUSPECTED_DUPLICATE,
  nextDue,
  RELEASE,
  renewLeaseSql,
  toOutboxItem,
  type OutboxRow,
  type OutboxStore,
} from '../outbox.js';
import type { OutboxDraft, OutboxFailure, OutboxItem, OutboxSummary } from '../outbox-records.js';
import type { PgDb } from './pg-db.js';
import type { PgSession } from './pg-session.js';

// The outbox of src/store/outbox.ts on Postgres. Several replicas deliver from it at once: each
// claim leases one row under FOR UPDATE SKIP LOCKED, so two deliveries never wait on, nor take,
// the same item; every later step names the lease's owner, so a delivery that lost its lease
// (it was slow, another took the item over) changes nothing.

/**
 * The database's time, plus `ms` (a parameter or an expression), as the ISO text the outbox's time
 * columns hold. clock_timestamp(), not now(): a lease must not start at a transaction's beginning.
 * Every replica reads this one clock, so one whose own clock runs ahead cannot take over a lease.
 */
const dbTimePlus = (ms: string) =>
  `to_char((clock_timestamp() + (${ms})::double precision * interval '1 millisecond') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const DB_NOW = dbTimePlus('0');

/** What may go now (see DUE in sqlite/outbox.ts), with $1 the replica's time (for pending items) and $2 the platforms (text[]). */
const DUE = `FROM outbox o LEFT JOIN outbox p ON p.dedupe_key = o.parent_key
  WHERE ((o.status = 'pending' AND o.next_attempt_at <= $1) OR (o.status = 'sending' AND o.lease_until <= ${DB_NOW}))
    AND (o.parent_key IS NULL OR p.status = 'sent')`;
const ON_PLATFORMS = (param: string) => `split_part(o.target, ':', 1) = ANY(${param}::text[])`;

export class PgOutboxStore implements OutboxStore {
  constructor(private readonly db: PgDb) {}

  async enqueue(items: OutboxDraft[], now: Date): Promise<number> {
    return this.db.transaction((tx) => enqueuePgOutbox(tx, items, now));
  }

  async due(now: Date, limit = 100): Promise<OutboxItem[]> {
    const rows = await this.db.rows<OutboxRow>(`SELECT o.*, p.ref AS parent_ref ${DUE} ORDER BY o.id LIMIT $2`, [now.toISOString(), limit]);
    return rows.map(toOutboxItem);
  }

  async claimNext(owner: string, now: Date, leaseMs: number, platforms: readonly string[]): Promise<OutboxItem | null> {
    const at = now.toISOString();
    // The row is locked by the inner SELECT until the UPDATE commits; another replica's claim skips
    // it and takes the next. A lease taken over from a delivery that died mid-post is in doubt. The
    // first attempt's time is the database's too: a look for a post in doubt starts from it.
    const row = await this.db.one<OutboxRow>(
      `WITH next AS (
         SELECT o.id, p.ref AS parent_ref ${DUE} AND ${ON_PLATFORMS('$2')}
         ORDER BY o.id LIMIT 1 FOR UPDATE OF o SKIP LOCKED
       )
       UPDATE outbox SET status = 'sending', lease_owner = $3, lease_until = ${dbTimePlus('$4')}, first_attempt_at = coalesce(first_attempt_at, ${DB_NOW}),
         in_doubt = CASE WHEN status = 'sending' THEN 1 ELSE in_doubt END
       FROM next WHERE outbox.id = next.id
       RETURNING outbox.*, next.parent_ref`,
      [at, platforms, owner, leaseMs],
    );
    return row ? toOutboxItem(row) : null;
  }

  async markSent(
    id: number,
    owner: string,
    ref: string | null,
    now: Date,
    options: { suspectedDuplicate?: boolean } = {},
  ): Promise<boolean> {
    const changed = await this.db.run(MARK_SENT, [ref, now.toISOString(), options.suspectedDuplicate ? 1 : 0, id, owner]);
    return changed === 1;
  }

  async markRetry(id: number, owner: string, failure: OutboxFailure): Promise<boolean> {
    return (await this.db.run(MARK_RETRY, markRetryValues(id, owner, failure))) === 1;
  }

  async release(id: number, owner: string, nextAttemptAt: Date): Promise<void> {
    await this.db.run(RELEASE, [nextAttemptAt.toISOString(), id, owner]);
  }

  async renewLease(id: number, owner: string, leaseMs: number): Promise<boolean> {
    const changed = await this.db.run(renewLeaseSql(dbTimePlus('$1')), [leaseMs, id, owner]);
    return changed === 1;
  }

  async markSuspectedDuplicate(id: number): Promise<void> {
    await this.db.run(MARK_SUSPECTED_DUPLICATE, [id]);
  }

  async nextAttemptAt(platforms: readonly string[], now?: Date): Promise<Date | null> {
    const row = await this.db.one<{ pending: string | null; lease: string | null; db_now: string }>(
      `SELECT min(CASE o.status WHEN 'pending' THEN o.next_attempt_at END) AS pending,
              min(CASE o.status WHEN 'sending' THEN o.lease_until END) AS lease, ${DB_NOW} AS db_now
       FROM outbox o LEFT JOIN outbox p ON p.dedupe_key = o.parent_key
       WHERE o.status IN ('pending', 'sending') AND (o.parent_key IS NULL OR p.status = 'sent') AND ${ON_PLATFORMS('$1')}`,
      [platforms],
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

  async failed(limit = 50): Promise<OutboxItem[]> {
    const rows = await this.db.rows<OutboxRow>(
      `SELECT o.*, NULL AS parent_ref FROM outbox o WHERE status = 'failed' ORDER BY id DESC LIMIT $1`,
      [limit],
    );
    return rows.map(toOutboxItem);
  }

  async retryFailed(now: Date, ids?: readonly number[]): Promise<number> {
    return this.db.run(
      `UPDATE outbox SET status = 'pending', next_attempt_at = $1, first_failure_at = NULL, attempts = 0, last_error = NULL
       WHERE status = 'failed' AND ($2::bigint[] IS NULL OR id = ANY($2::bigint[]))`,
      [now.toISOString(), ids ?? null],
    );
  }

  async threadRoot(groupKey: string, platform: string): Promise<string | null> {
    const row = await this.db.one<{ rootKey: string }>(
      'SELECT root_key AS "rootKey" FROM alert_threads WHERE group_key = $1 AND platform = $2',
      [groupKey, platform],
    );
    return row?.rootKey ?? null;
  }
}

/** Inserts drafts, skipping dedupe keys already queued (see enqueueOutbox). Runs in the caller's transaction. */
export async function enqueuePgOutbox(tx: PgSession, items: OutboxDraft[], now: Date): Promise<number> {
  const at = now.toISOString();
  let added = 0;
  for (const item of items) {
    added += await tx.run(
      `INSERT INTO outbox (dedupe_key, target, message, op, parent_key, next_attempt_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (dedupe_key) DO NOTHING`,
      [item.dedupeKey, item.target, JSON.stringify(item.message), item.op ?? 'post', item.parentKey ?? null, at, at],
    );
    const platform = item.target.slice(0, item.target.indexOf(':'));
    for (const group of typeof item.threadOf === 'string' ? [item.threadOf] : (item.threadOf ?? []))
      await tx.run('INSERT INTO alert_threads (group_key, platform, root_key) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
        group,
        platform,
        item.dedupeKey,
      ]);
  }
  return added;
}
