import { CLAIM_DELIVERY, CLAIM_JOB, FORGET_EXPIRED_DELIVERIES, type ClaimStore } from '../claims.js';
import type { PgDb } from './pg-db.js';

export class PgClaimStore implements ClaimStore {
  constructor(private readonly db: PgDb) {}

  async firstDelivery(keys: readonly string[], now: Date, ttlMs: number): Promise<boolean> {
    if (keys.length === 0) return true;
    const at = now.toISOString();
    const until = new Date(now.getTime() + ttlMs).toISOString();
    return this.db.transaction(async (tx) => {
      await tx.run(FORGET_EXPIRED_DELIVERIES, [at]);
      let claimed = 0;
      for (const key of keys) claimed += (await tx.rows(CLAIM_DELIVERY, [key, until, at])).length;
      return claimed === keys.length;
    });
  }

  async jobOccurrence(job: string, occurrence: Date, owner: string, now: Date): Promise<boolean> {
    return (await this.db.run(CLAIM_JOB, [job, occurrence.toISOString(), owner, now.toISOString()])) === 1;
  }
}
