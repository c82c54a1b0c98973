import type { Snooze, SnoozeOutcome } from '../domain/snooze.js';

export interface SnoozeStore {
  set(snooze: Snooze): Promise<void>;
  /**
   * Applies a snooze in one step, so concurrent clicks cannot both win. Unless `explicit`, a request
   * for the duration already running, or for an end no later than the active one, changes nothing.
   */
  request(snooze: Snooze & { duration: string }, options: { explicit: boolean }): Promise<SnoozeOutcome>;
  active(now: Date): Promise<Snooze[]>;
  /** Ends the group's snooze now; the snooze that was running, or null when none was (a repeated click). */
  end(groupKey: string, now: Date): Promise<Snooze | null>;
}

export interface SnoozeRow {
  groupKey: string;
  until: string;
  byUser: string;
  at: string;
  duration: string | null;
}

/** Quoted aliases: Postgres keeps their case only so; SQLite reads them the same. */
export const SNOOZE_COLUMNS = 'group_key AS "groupKey", until, by_user AS "byUser", at, duration';

export function snoozeFromRow(row: SnoozeRow): Snooze {
  return { ...row, until: new Date(row.until), at: new Date(row.at) };
}
