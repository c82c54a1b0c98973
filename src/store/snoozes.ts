import type Database from 'better-sqlite3';
import type { Snooze, SnoozeStore } from './store.js';

/** Snoozed alert groups: while snoozed, a group's alerts are recorded but not posted. */
export class SqliteSnoozeStore implements SnoozeStore {
  private readonly setStatement: Database.Statement<[string, string, string, string]>;
  private readonly activeStatement: Database.Statement<[string], { groupKey: string; until: string; byUser: string; at: string }>;

  constructor(db: Database.Database) {
    this.setStatement = db.prepare(
      `INSERT INTO snoozes (group_key, until, by_user, at) VALUES (?, ?, ?, ?)
       ON CONFLICT (group_key) DO UPDATE SET until = excluded.until, by_user = excluded.by_user, at = excluded.at`,
    );
    this.activeStatement = db.prepare('SELECT group_key AS groupKey, until, by_user AS byUser, at FROM snoozes WHERE until > ?');
  }

  async set(snooze: Snooze): Promise<void> {
    this.setStatement.run(snooze.groupKey, snooze.until.toISOString(), snooze.byUser, snooze.at.toISOString());
  }

  async active(now: Date): Promise<Snooze[]> {
    return this.activeStatement.all(now.toISOString()).map((r) => ({ ...r, until: new Date(r.until), at: new Date(r.at) }));
  }
}
