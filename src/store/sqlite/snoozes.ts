import type Database from 'better-sqlite3';
import type { Snooze, SnoozeOutcome } from '../../domain/snooze.js';
import { SNOOZE_COLUMNS, snoozeFromRow, type SnoozeStore, type SnoozeRow } from '../snoozes.js';

/** Snoozed alert groups: while snoozed, a group's alerts are recorded but not posted. */
export class SqliteSnoozeStore implements SnoozeStore {
  private readonly setStatement: Database.Statement<[string, string, string, string, string | null]>;
  private readonly getStatement: Database.Statement<[string], SnoozeRow>;
  private readonly activeStatement: Database.Statement<[string], SnoozeRow>;
  private readonly endTransaction: (groupKey: string, now: Date) => Snooze | null;
  private readonly requestTransaction: (snooze: Snooze & { duration: string }, explicit: boolean) => SnoozeOutcome;

  constructor(db: Database.Database) {
    this.setStatement = db.prepare(
      `INSERT INTO snoozes (group_key, until, by_user, at, duration) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (group_key) DO UPDATE SET until = excluded.until, by_user = excluded.by_user, at = excluded.at, duration = excluded.duration`,
    );
    this.getStatement = db.prepare(`SELECT ${SNOOZE_COLUMNS} FROM snoozes WHERE group_key = ?`);
    this.activeStatement = db.prepare(`SELECT ${SNOOZE_COLUMNS} FROM snoozes WHERE until > ? ORDER BY group_key`);
    const endStatement = db.prepare<[string, string, string]>('UPDATE snoozes SET until = ? WHERE group_key = ? AND until > ?');
    this.endTransaction = db.transaction((groupKey: string, now: Date): Snooze | null => {
      const row = this.getStatement.get(groupKey);
      if (!row || new Date(row.until) <= now) return null;
      endStatement.run(now.toISOString(), groupKey, now.toISOString());
      return snoozeFromRow(row);
    });
    // Read and write in one transaction: of two replays of the same click, exactly one is applied.
    this.requestTransaction = db.transaction((snooze: Snooze & { duration: string }, explicit: boolean): SnoozeOutcome => {
      const row = this.getStatement.get(snooze.groupKey);
      const current = row && new Date(row.until) > snooze.at ? snoozeFromRow(row) : null;
      if (current && !explicit) {
        if (current.duration === snooze.duration) return { kind: 'same', snooze: current };
        if (current.until >= snooze.until) return { kind: 'longer', snooze: current };
      }
      this.write(snooze);
      return { kind: 'set', snooze, replaced: current };
    });
  }

  private write(snooze: Snooze): void {
    this.setStatement.run(snooze.groupKey, snooze.until.toISOString(), snooze.byUser, snooze.at.toISOString(), snooze.duration ?? null);
  }

  async set(snooze: Snooze): Promise<void> {
    this.write(snooze);
  }

  async request(snooze: Snooze & { duration: string }, options: { explicit: boolean }): Promise<SnoozeOutcome> {
    return this.requestTransaction(snooze, options.explicit);
  }

  async end(groupKey: string, now: Date): Promise<Snooze | null> {
    return this.endTransaction(groupKey, now);
  }

  async active(now: Date): Promise<Snooze[]> {
    return this.activeStatement.all(now.toISOString()).map(snoozeFromRow);
  }
}
