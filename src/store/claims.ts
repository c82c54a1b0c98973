import type { Session } from './session.js';

/**
 * Rows that make several processes on one database act once. Each claim is a single upsert:
 * whoever inserts (or renews an expired) row first has it.
 */
export class SqlClaimStore {
  constructor(private readonly db: Session) {}

  /**
   * True for the first process to see a chat delivery under any of `keys` within `ttlMs`, and
   * remembers them; false for a repeat (a resent envelope, a click that reached two replicas).
   * A delivery without keys is always new.
   * Every key in one statement: a replica claims a Slack delivery before it acknowledges it, so this
   * is one round trip. Keys go in sorted, so two replicas claiming the same keys lock them in the same order.
   */
  async firstDelivery(keys: readonly string[], now: Date, ttlMs: number): Promise<boolean> {
    const distinct = [...new Set(keys)].sort();
    if (distinct.length === 0) return true;
    const until = new Date(now.getTime() + ttlMs).toISOString();
    const d = this.db.dialect;
    // WHERE true: SQLite needs it to tell an upsert's ON CONFLICT from a join's ON.
    const claimed = await this.db.run(
      `INSERT INTO inbound_claims (key, expires_at) SELECT value, ? FROM ${d.listTable} WHERE true
       ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at WHERE inbound_claims.expires_at <= ?
       RETURNING key`,
      [until, d.list(distinct), now.toISOString()],
    );
    return claimed === distinct.length;
  }

  /**
   * True for the one process that runs `job`'s occurrence scheduled at `occurrence`; false for the others.
   * Also forgets expired delivery claims: off the acknowledgement's path, on the leader's schedule.
   */
  async jobOccurrence(job: string, occurrence: Date, owner: string, now: Date): Promise<boolean> {
    const first =
      (await this.db.run('INSERT INTO job_runs (job, occurrence, owner, at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING', [
        job,
        occurrence.toISOString(),
        owner,
        now.toISOString(),
      ])) === 1;
    if (first) await this.db.run('DELETE FROM inbound_claims WHERE expires_at <= ?', [now.toISOString()]);
    return first;
  }
}
