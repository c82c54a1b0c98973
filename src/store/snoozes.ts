import type { Snooze, SnoozeOutcome } from '../domain/snooze.js';
import type { Session } from './session.js';

interface SnoozeRow {
  groupKey: string;
  until: string;
  byUser: string;
  at: string;
  duration: string | null;
}

const SELECT = 'SELECT group_key AS "groupKey", until, by_user AS "byUser", at, duration FROM snoozes';

const snoozeFromRow = (row: SnoozeRow): Snooze => ({ ...row, until: new Date(row.until), at: new Date(row.at) });

/**
 * Snoozed alert groups: while snoozed, a group's alerts are recorded but not posted. A request and
 * an end read the group's snooze and write it in one transaction under a lock of that group, so of
 * two clicks (on two replicas) exactly one is applied, also when no row exists yet to hold.
 */
export class SqlSnoozeStore {
  constructor(private readonly db: Session) {}

  async set(snooze: Snooze): Promise<void> {
    await write(this.db, snooze);
  }

  /**
   * Applies a snooze in one step, so concurrent clicks cannot both win. Unless `explicit`, a request
   * for the duration already running, or for an end no later than the active one, changes nothing.
   */
  async request(snooze: Snooze & { duration: string }, options: { explicit: boolean }): Promise<SnoozeOutcome> {
    return this.db.transaction(async (tx) => {
      await tx.lock(`snooze ${snooze.groupKey}`);
      const row = await tx.one<SnoozeRow>(`${SELECT} WHERE group_key = ?`, [snooze.groupKey]);
      const current = row && new Date(row.until) > snooze.at ? snoozeFromRow(row) : null;
      if (current && !options.explicit) {
        if (current.duration === snooze.duration) return { kind: 'same', snooze: current };
        if (current.until >= snooze.until) return { kind: 'longer', snooze: current };
      }
      await write(tx, snooze);
      return { kind: 'set', snooze, replaced: current };
    });
  }

  /** Ends the group's snooze now; the snooze that was running, or null when none was (a repeated click). */
  async end(groupKey: string, now: Date): Promise<Snooze | null> {
    return this.db.transaction(async (tx) => {
      await tx.lock(`snooze ${groupKey}`);
      const row = await tx.one<SnoozeRow>(`${SELECT} WHERE group_key = ?`, [groupKey]);
      if (!row || new Date(row.until) <= now) return null;
      await tx.run('UPDATE snoozes SET until = ? WHERE group_key = ? AND until > ?', [now.toISOString(), groupKey, now.toISOString()]);
      return snoozeFromRow(row);
    });
  }

  async active(now: Date): Promise<Snooze[]> {
    const rows = await this.db.rows<SnoozeRow>(`${SELECT} WHERE until > ? ORDER BY ${this.db.dialect.bytes('group_key')}`, [
      now.toISOString(),
    ]);
    return rows.map(snoozeFromRow);
  }
}

function write(db: Session, snooze: Snooze): Promise<number> {
  return db.run(
    `INSERT INTO snoozes (group_key, until, by_user, at, duration) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (group_key) DO UPDATE SET until = excluded.until, by_user = excluded.by_user, at = excluded.at, duration = excluded.duration`,
    [snooze.groupKey, snooze.until.toISOString(), snooze.byUser, snooze.at.toISOString(), snooze.duration ?? null],
  );
}
