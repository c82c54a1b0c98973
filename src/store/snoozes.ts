import type Database from 'better-sqlite3';
import type { Snooze, SnoozeStore } from './store.js';

/** Snoozed alert groups: while snoozed, a group's alerts are recorded but not posted. */
export class SqliteSnoozeStore implements SnoozeStore {
  constructor(private readonly db: Database.Database) {}

  async set(snooze: Snooze): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO snoozes (group_key, until, by_user, at) VALUES (?, ?, ?, ?)
         ON CONFLICT (group_key) DO UPDATE SET until = excluded.until, by_user = excluded.by_user, at = excluded.at`,
      )
      .run(snooze.groupKey, snooze.until.toISOString(), snooze.byUser, snooze.at.toISOString());
  }

  async active(now: Date): Promise<Snooze[]> {
    const rows = this.db
      .prepare('SELECT group_key AS groupKey, until, by_user AS byUser, at FROM snoozes WHERE until > ?')
      .all(now.toISOString()) as { groupKey: string; until: string; byUser: string; at: string }[];
    return rows.map((r) => ({ ...r, until: new Date(r.until), at: new Date(r.at) }));
  }
}
