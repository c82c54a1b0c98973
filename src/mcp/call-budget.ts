/**
 * How many requests each user's token may make in any rolling minute: enough for an assistant
 * working through a question, little enough that a runaway agent loop cannot keep the database busy
 * for everyone else.
 */
export const CALLS_PER_MINUTE = 120;

const MINUTE = 60_000;

/** A rolling minute's requests per user, on the clock given. */
export class CallBudget {
  private readonly recent = new Map<string, number[]>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number,
  ) {}

  /** Counts a request of `user`; when the minute's budget is spent, the whole seconds until the next is free. */
  take(user: string): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const now = this.now();
    const calls = (this.recent.get(user) ?? []).filter((at) => at > now - MINUTE);
    if (calls.length >= this.perMinute) {
      this.recent.set(user, calls);
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((calls[0]! + MINUTE - now) / 1000)) };
    }
    calls.push(now);
    this.recent.set(user, calls);
    return { ok: true };
  }
}
