import { z } from 'zod';

const UNITS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/;

/** A duration such as `90s`, `5m`, `24h` or `2d`; kept as written, read with durationMs. */
export function duration(what: string) {
  const error = `expected ${what} as a duration such as 30s, 5m, 24h or 2d`;
  return z.string({ error }).regex(DURATION, { error });
}

export function durationMs(text: string): number {
  const [, amount, unit] = DURATION.exec(text)!;
  return Number(amount) * UNITS[unit as keyof typeof UNITS];
}

/**
 * How the outbox retries: transient failures (throttles, 5xx, network) are retried with
 * exponential backoff from `firstRetryAfter` up to `maxRetryAfter` between attempts, for
 * `retryFor` from an item's first failure; only then, or on a permanent error, does it fail.
 * `lease` is how long a delivery holds a message it is sending: when its process dies, another
 * (a replica, or the next start) takes the message over after that, in doubt.
 */
export const deliverySchema = z.strictObject({
  retryFor: duration('how long to retry a message').default('24h'),
  firstRetryAfter: duration('the first wait before a retry').default('2s'),
  maxRetryAfter: duration('the longest wait between retries').default('5m'),
  lease: duration('how long a delivery holds a message').default('2m'),
});

export type DeliveryConfig = z.output<typeof deliverySchema>;

/** The delivery settings in milliseconds, as deliverOutbox takes them. */
export function deliveryTimings(config: DeliveryConfig): { retryForMs: number; baseDelayMs: number; maxDelayMs: number; leaseMs: number } {
  return {
    retryForMs: durationMs(config.retryFor),
    baseDelayMs: durationMs(config.firstRetryAfter),
    maxDelayMs: durationMs(config.maxRetryAfter),
    leaseMs: durationMs(config.lease),
  };
}
