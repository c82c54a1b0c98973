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
}

/** Alerts leave through this table, so a crash or a chat outage loses nothing. */
export class SqliteOutboxStore implements OutboxStore {
  constructor(private readonly db: Database.Database) {}

  async enqueue(items: OutboxDraft[], now: Date): Promise<number> {
    return this.db.transaction(() => enqueueOutbox(this.db, items, now))();
  }

  async due(now: Date, limit = 100): Promise<OutboxItem[]> {
    const rows = this.db
      .prepare("SELECT * FROM outbox WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY id LIMIT ?")
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
    }));
  }

  async markSent(id: number, ref: string | null, now: Date): Promise<void> {
    this.db
      .prepare("UPDATE outbox SET status = 'sent', ref = ?, sent_at = ?, attempts = attempts + 1, last_error = NULL WHERE id = ?")
      .run(ref, now.toISOString(), id);
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
    `INSERT INTO outbox (dedupe_key, target, message, next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (dedupe_key) DO NOTHING`,
  );
  const at = now.toISOString();
  return items.reduce((added, item) => added + insert.run(item.dedupeKey, item.target, JSON.stringify(item.message), at, at).changes, 0);
}
