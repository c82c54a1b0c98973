/**
 * Rows that make several processes on one database act once. Each claim is a single upsert, the
 * same statement on SQLite and Postgres: whoever inserts (or renews an expired) row first has it.
 */
export interface ClaimStore {
  /**
   * True for the first process to see a chat delivery under any of `keys` within `ttlMs`, and
   * remembers them; false for a repeat (a resent envelope, a click that reached two replicas).
   * A delivery without keys is always new.
   */
  firstDelivery(keys: readonly string[], now: Date, ttlMs: number): Promise<boolean>;
  /** True for the one process that runs `job`'s occurrence scheduled at `occurrence`; false for the others. */
  jobOccurrence(job: string, occurrence: Date, owner: string, now: Date): Promise<boolean>;
}

/** Claims the keys not claimed or expired; the delivery is new when it got every one of them. */
export const CLAIM_DELIVERY = `INSERT INTO inbound_claims (key, expires_at) VALUES ($1, $2)
  ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at WHERE inbound_claims.expires_at <= $3
  RETURNING key`;
export const FORGET_EXPIRED_DELIVERIES = 'DELETE FROM inbound_claims WHERE expires_at <= $1';
export const CLAIM_JOB = `INSERT INTO job_runs (job, occurrence, owner, at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`;
