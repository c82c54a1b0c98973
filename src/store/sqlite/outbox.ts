import type Database from 'better-sqlite3';
import { forSqlite } from './sql-params.js';
import type { OutboxDraft, OutboxFailure, OutboxItem, OutboxSummary } from '../outbox-records.js';
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

/**
 * What may go now: pending and due (by the replica's time), or leased by a delivery whose lease ran
 * out by the database's time (it crashed or stalled). An update or a reply is due only once its
 * parent was sent and so has a platform reference.
 */
const DUE = `FROM outbox o LEFT JOIN outbox p ON p.dedupe_key = o.parent_key
  WHERE ((o.status = 'pending' AND o.next_attempt_at <= @now) OR (o.status = 'sending' AND o.lease_until <= @dbNow))
    AND (o.parent_key IS NULL OR p.status = 'sent')`;

/** Only items of the platforms a delivery runs (a JSON array); the others wait for a process that runs them. */
const ON_PLATFORMS = `substr(o.target, 1, instr(o.target, ':') - 1) IN (SELECT value FROM json_each(@platforms))`;

/**
 * Alerts leave through this table, so a crash or a chat outage loses nothing. Every send is
 * preceded by a lease (claimNext), so two deliveries (two jobs of one process, or two processes on
 * one database file) never post the same item; an immediate transaction makes the lease atomic
 * across processes too.
 *
 * Leases are judged on the database's clock. SQLite is a file on one machine, so every process
 * that opens it reads the same clock, the machine's: `databaseClock` is that clock (the real one,
 * never the replica's injected time such as BURNRATE_NOW); a simulation passes its own.
 */
export class SqliteOutboxStore implements OutboxStore {
  private readonly claim: (owner: string, now: Date, leaseMs: number, platforms: readonly string[]) => OutboxRow | undefined;

  constructor(
    private readonly db: Database.Database,
    private readonly databaseClock: () => Date = () => new Date(),
  ) {
    const next = db.prepare(`SELECT o.*, p.ref AS parent_ref ${DUE} AND ${ON_PLATFORMS} ORDER BY o.id LIMIT 1`);
    const lease = db.prepare(
      `UPDATE outbox SET status = 'sending', lease_owner = @owner, lease_until = @until, first_attempt_at = coalesce(first_attempt_at, @firstAttempt),
         in_doubt = CASE WHEN status = 'sending' THEN 1 ELSE in_doubt END
       WHERE id = @id`,
    );
    const claim = db.transaction((owner: string, now: Date, leaseMs: number, platforms: readonly string[]) => {
      const at = now.toISOString();
      const dbNow = this.databaseClock();
      const row = next.get({ now: at, dbNow: dbNow.toISOString(), platforms: JSON.stringify(platforms) }) as OutboxRow | undefined;
      if (!row) return undefined;
      // The first attempt's time is the database's too: a look for a post in doubt starts from it,
      // and a replica whose clock runs ahead would start that look after the post it is looking for.
      const firstAttempt = dbNow.toISOString();
      lease.run({ id: row.id, owner, until: new Date(dbNow.getTime() + leaseMs).toISOString(), firstAttempt });
      // A lease taken over from a delivery that died mid-post: that post may have gone out.
      return {
        ...row,
        status: 'sending' as const,
        in_doubt: row.status === 'sending' ? 1 : row.in_doubt,
        first_attempt_at: row.first_attempt_at ?? firstAttempt,
      };
    });
    this.claim = (owner, now, leaseMs, platforms) => claim.immediate(owner, now, leaseMs, platforms);
  }

  async enqueue(items: OutboxDraft[], now: Date): Promise<number> {
    return this.db.transaction(() => enqueueOutbox(this.db, items, now))();
  }

  async due(now: Date, limit = 100): Promise<OutboxItem[]> {
    const rows = this.db
      .prepare(`SELECT o.*, p.ref AS parent_ref ${DUE} ORDER BY o.id LIMIT @limit`)
      .all({ now: now.toISOString(), dbNow: this.databaseClock().toISOString(), limit }) as OutboxRow[];
    return rows.map(toOutboxItem);
  }

  async claimNext(owner: string, now: Date, leaseMs: number, platforms: readonly string[]): Promise<OutboxItem | null> {
    const row = this.claim(owner, now, leaseMs, platforms);
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

  async markRetry(id: number, owner: string, failure: OutboxFailure): Promise<boolean> {
    return this.db.prepare(forSqlite(MARK_RETRY)).run(...markRetryValues(id, owner, failure)).changes === 1;
  }

  async release(id: number, owner: string, nextAttemptAt: Date): Promise<void> {
    this.db.prepare(forSqlite(RELEASE)).run(nextAttemptAt.toISOString(), id, owner);
  }

  async renewLease(id: number, owner: string, leaseMs: number): Promise<boolean> {
    const until = new Date(this.databaseClock().getTime() + leaseMs).toISOString();
    const { changes } = this.db.prepare(forSqlite(renewLeaseSql('$1'))).run(until, id, owner);
    return changes === 1;
  }

  async markSuspectedDuplicate(id: number): Promise<void> {
    this.db.prepare(forSqlite(MARK_SUSPECTED_DUPLICATE)).run(id);
  }

  async nextAttemptAt(platforms: readonly string[], now?: Date): Promise<Date | null> {
    const row = this.db
      .prepare(
        `SELECT min(CASE o.status WHEN 'pending' THEN o.next_attempt_at END) AS pending,
                min(CASE o.status WHEN 'sending' THEN o.lease_until END) AS lease
         FROM outbox o LEFT JOIN outbox p ON p.dedupe_key = o.parent_key
         WHERE o.status IN ('pending', 'sending') AND (o.parent_key IS NULL OR p.status = 'sent') AND ${ON_PLATFORMS}`,
      )
      .get({ platforms: JSON.stringify(platforms) }) as { pending: string | null; lease: string | null };
    return nextDue(row.pending, row.lease, this.databaseClock(), now);
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
