import type { OutboxDraft } from '../outbox-records.js';
import type { PgSession } from './pg-session.js';

/** Inserts drafts, skipping dedupe keys already queued, as enqueueOutbox does on SQLite. Runs inside the caller's transaction. */
export async function enqueueOutbox(tx: PgSession, items: readonly OutboxDraft[], now: Date): Promise<number> {
  const at = now.toISOString();
  let added = 0;
  for (const item of items) {
    added += await tx.run(
      `INSERT INTO outbox (dedupe_key, target, message, op, parent_key, next_attempt_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $6)
       ON CONFLICT (dedupe_key) DO NOTHING`,
      [item.dedupeKey, item.target, JSON.stringify(item.message), item.op ?? 'post', item.parentKey ?? null, at],
    );
    const platform = item.target.slice(0, item.target.indexOf(':'));
    for (const group of typeof item.threadOf === 'string' ? [item.threadOf] : (item.threadOf ?? [])) {
      await tx.run('INSERT INTO alert_threads (group_key, platform, root_key) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
        group,
        platform,
        item.dedupeKey,
      ]);
    }
  }
  return added;
}
