import type { Snooze, SnoozeOutcome } from '../../domain/snooze.js';
import { SNOOZE_COLUMNS, snoozeFromRow, type SnoozeRow, type SnoozeStore } from '../snoozes.js';
import { lockFor, type PgDb } from './pg-db.js';
import type { PgSession } from './pg-session.js';

/**
 * Snoozed alert groups (snoozes.ts). A request and an end read the group's snooze and write it
 * under a lock of that group, so of two clicks on two replicas exactly one is applied, also when
 * no row exists yet for FOR UPDATE to hold.
 */
export class PgSnoozeStore implements SnoozeStore {
  constructor(private readonly db: PgDb) {}

  async set(snooze: Snooze): Promise<void> {
    await write(this.db, snooze);
  }

  async request(snooze: Snooze & { duration: string }, options: { explicit: boolean }): Promise<SnoozeOutcome> {
    return this.db.transaction(async (tx) => {
      await lockFor(tx, `snooze ${snooze.groupKey}`);
      const row = await tx.one<SnoozeRow>(`SELECT ${SNOOZE_COLUMNS} FROM snoozes WHERE group_key = $1`, [snooze.groupKey]);
      const current = row && new Date(row.until) > snooze.at ? snoozeFromRow(row) : null;
      if (current && !options.explicit) {
        if (current.duration === snooze.duration) return { kind: 'same', snooze: current };
        if (current.until >= snooze.until) return { kind: 'longer', snooze: current };
      }
      await write(tx, snooze);
      return { kind: 'set', snooze, replaced: current };
    });
  }

  async end(groupKey: string, now: Date): Promise<Snooze | null> {
    return this.db.transaction(async (tx) => {
      await lockFor(tx, `snooze ${groupKey}`);
      const row = await tx.one<SnoozeRow>(`SELECT ${SNOOZE_COLUMNS} FROM snoozes WHERE group_key = $1`, [groupKey]);
      if (!row || new Date(row.until) <= now) return null;
      await tx.run('UPDATE snoozes SET until = $1 WHERE group_key = $2 AND until > $1', [now.toISOString(), groupKey]);
      return snoozeFromRow(row);
    });
  }

  async active(now: Date): Promise<Snooze[]> {
    return (await this.db.rows<SnoozeRow>(`SELECT ${SNOOZE_COLUMNS} FROM snoozes WHERE until > $1`, [now.toISOString()])).map(
      snoozeFromRow,
    );
  }
}

function write(session: PgSession, snooze: Snooze): Promise<number> {
  return session.run(
    `INSERT INTO snoozes (group_key, until, by_user, at, duration) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (group_key) DO UPDATE SET until = excluded.until, by_user = excluded.by_user, at = excluded.at, duration = excluded.duration`,
    [snooze.groupKey, snooze.until.toISOString(), snooze.byUser, snooze.at.toISOString(), snooze.duration ?? null],
  );
}
