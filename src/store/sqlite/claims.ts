import type Database from 'better-sqlite3';
import { forSqlite } from './sql-params.js';
import { CLAIM_DELIVERY, CLAIM_JOB, FORGET_EXPIRED_DELIVERIES, type ClaimStore } from '../claims.js';

export class SqliteClaimStore implements ClaimStore {
  private readonly claimDelivery: Database.Statement<[string, string, string]>;
  private readonly forgetExpired: Database.Statement<[string]>;
  private readonly claimJob: Database.Statement<[string, string, string, string]>;
  private readonly claimAll: (keys: readonly string[], now: string, until: string) => boolean;

  constructor(db: Database.Database) {
    this.claimDelivery = db.prepare(forSqlite(CLAIM_DELIVERY));
    this.forgetExpired = db.prepare(forSqlite(FORGET_EXPIRED_DELIVERIES));
    this.claimJob = db.prepare(forSqlite(CLAIM_JOB));
    this.claimAll = db.transaction((keys: readonly string[], now: string, until: string) => {
      this.forgetExpired.run(now);
      let claimed = 0;
      for (const key of keys) claimed += this.claimDelivery.all(key, until, now).length;
      return claimed === keys.length;
    });
  }

  async firstDelivery(keys: readonly string[], now: Date, ttlMs: number): Promise<boolean> {
    if (keys.length === 0) return true;
    return this.claimAll(keys, now.toISOString(), new Date(now.getTime() + ttlMs).toISOString());
  }

  async jobOccurrence(job: string, occurrence: Date, owner: string, now: Date): Promise<boolean> {
    return this.claimJob.run(job, occurrence.toISOString(), owner, now.toISOString()).changes === 1;
  }
}
