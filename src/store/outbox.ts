import type Database from 'better-sqlite3';
import type { Message } from '../../templates/message.js';
import type { OutboxDraft, OutboxItem, OutboxStore } from './store.js';

interface OutboxRow {
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
}

/** Alerts leave through this table, so a crash or a chat outage loses nothing. */
export class SqliteOutboxStore implements OutboxStore {
  constructor(private readonly db: Database.Database) {}

  async enqueue(items: OutboxDraft[], now: Date): Promise<number> {
    return this.db.transaction(() => enqueueOutbox(this.db, items, now))();
  }

  async due(now: Date, limit = 100): Promise<OutboxItem[]> {
    // An update or a reply is due only once its parent was sent and so has a platform reference.
    const rows = this.db
      .prepare(
        `SELECT o.*, p.ref AS parent_ref FROM outbox o LEFT JOIN outbox p ON p.dedupe_key = o.parent_key
         WHERE o.status = 'pending' AND o.next_attempt_at <= ? AND (o.parent_key IS NULL OR p.status = 'sent')
         ORDER BY o.id LIMIT ?`,
      )
      .all(now.toISOString(), limit) as OutboxRow[];
    return rows.map((row) => ({
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
    }));
  }

  async markSent(id: number, ref: string | null, now: Date): Promise<void> {
    this.db
      .prepare("UPDATE outbox SET status = 'sent', ref = ?, sent_at = ?, attempts = attempts + 1, last_error = NULL WHERE id = ?")
      .run(ref, now.toISOString(), id);
  }

  async threadRoot(groupKey: string, platform: string): Promise<string | null> {
    const row = this.db.prepare('SELECT root_key AS rootKey FROM alert_threads WHERE group_key = ? AND platform = ?').get(groupKey, platform) as
      | { rootKey: string }
      | undefined;
    return row?.rootKey ?? null;
  }

  async markRetry(id: number, error: string, nextAttemptAt: Date, giveUp: boolean): Promise<void> {
    this.db
      .prepare('UPDATE outbox SET status = ?, attempts = attempts + 1, last_error = ?, next_attempt_at = ? WHERE id = ?')
      .run(giveUp ? 'failed' : 'pending', error.slice(0, 500), nextAttemptAt.toISOString(), id);
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
    added += insert.run(item.dedupeKey, item.target, JSON.stringify(item.message), item.op ?? 'post', item.parentKey ?? null, at, at).changes;
    const platform = item.target.slice(0, item.target.indexOf(':'));
    for (const group of typeof item.threadOf === 'string' ? [item.threadOf] : (item.threadOf ?? [])) thread.run(group, platform, item.dedupeKey);
  }
  return added;
}
