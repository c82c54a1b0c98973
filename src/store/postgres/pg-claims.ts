import { CLAIM_JOB, FORGET_EXPIRED_DELIVERIES, type ClaimStore } from '../claims.js';
import type { PgDb } from './pg-db.js';

/**
 * CLAIM_DELIVERY for every key in one statement: a replica claims a Slack delivery before it
 * acknowledges it, so this is one round trip. Keys go in sorted, so two replicas claiming the same
 * keys lock them in the same order.
 */
const CLAIM_DELIVERY_KEYS = `INSERT INTO inbound_claims (key, expires_at) SELECT unnest($1::text[]), $2
  ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at WHERE inbound_claims.expires_at <= $3
  RETURNING key`;

export class PgClaimStore implements ClaimStore {
  constructor(private readonly db: PgDb) {}

  async firstDelivery(keys: readonly string[], now: Date, ttlMs: number): Promise<boolean> {
    const distinct = [...new Set(keys)].sort();
    if (distinct.length === 0) return true;
    const until = new Date(now.getTime() + ttlMs).toISOString();
    return (await this.db.rows(CLAIM_DELIVERY_KEYS, [distinct, until, now.toISOString()])).length === distinct.length;
  }

  /** Also forgets expired delivery claims: off the acknowledgement's path, on the leader's schedule. */
  async jobOccurrence(job: string, occurrence: Date, owner: string, now: Date): Promise<boolean> {
    const first = (await this.db.run(CLAIM_JOB, [job, occurrence.toISOString(), owner, now.toISOString()])) === 1;
    if (first) await this.db.run(FORGET_EXPIRED_DELIVERIES, [now.toISOString()]);
    return first;
  }
}
