/**
 * Keys of the Slack deliveries this process has already taken, each kept until it expires.
 *
 * In memory, per process, and bounded: the quick first answer for one `burnrate serve`; between
 * replicas the store's inbound claims decide (redelivery.ts). When more than `max` keys arrive within the
 * expiry the oldest are forgotten early, which can only let an old duplicate through, never drop a
 * new delivery.
 */
export class RecentDeliveries {
  /** Key to the time it expires (ms). A Map keeps insertion order, which is expiry order. */
  private readonly seen = new Map<string, number>();

  constructor(private readonly options: { ttlMs: number; max: number; now: () => number }) {}

  /**
   * True when none of `keys` was seen within the expiry, and remembers them all; false for a
   * repeat. A delivery without keys is always new.
   */
  firstTime(keys: readonly string[]): boolean {
    if (keys.length === 0) return true;
    const now = this.options.now();
    this.forgetExpired(now);
    for (const key of keys) {
      const until = this.seen.get(key);
      if (until !== undefined && until > now) return false;
    }
    for (const key of keys) {
      this.seen.delete(key);
      this.seen.set(key, now + this.options.ttlMs);
    }
    for (const key of this.seen.keys()) {
      if (this.seen.size <= this.options.max) break;
      this.seen.delete(key);
    }
    return true;
  }

  get size(): number {
    return this.seen.size;
  }

  private forgetExpired(now: number): void {
    // Stops at the first live key: the rest were added later (a clock stepping back only delays expiry).
    for (const [key, until] of this.seen) {
      if (until > now) return;
      this.seen.delete(key);
    }
  }
}
