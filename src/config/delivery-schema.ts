import { z } from 'zod';
import { CHAT_CALL_TIMEOUT_MS } from '../domain/chat-call.js';
import { duration, durationMs } from './duration-schema.js';

/** A lease shorter than this could end while its post is still on the wire: twice the longest chat call, and 30 s at least. */
const MIN_LEASE = `${Math.max(30, (2 * CHAT_CALL_TIMEOUT_MS) / 1000)}s`;

/**
 * How the outbox retries: transient failures (throttles, 5xx, network) are retried with
 * exponential backoff from `firstRetryAfter` up to `maxRetryAfter` between attempts, for
 * `retryFor` from an item's first failure; only then, or on a permanent error, does it fail.
 * `lease` is how long a delivery holds a message it is sending: when its process dies, another
 * (a replica, or the next start) takes the message over after that, in doubt.
 * Every one is bounded so that a setting that validates also delivers: no wait of 0 s (a chat
 * platform answering 500 would be called in a tight loop), no lease shorter than a chat call, no
 * duration past what a date can hold.
 */
export const deliverySchema = z
  .strictObject({
    retryFor: duration('how long to retry a message', { min: '1m', max: '30d' }).default('24h'),
    firstRetryAfter: duration('the first wait before a retry', {
      min: '1s',
      max: '1h',
      why: 'a shorter wait would call a failing chat platform in a tight loop',
    }).default('2s'),
    maxRetryAfter: duration('the longest wait between retries', { min: '1s', max: '1d' }).default('5m'),
    lease: duration('how long a delivery holds a message', {
      min: MIN_LEASE,
      max: '1h',
      why: `longer than a chat call may take, ${CHAT_CALL_TIMEOUT_MS / 1000}s, so a post in progress is never taken over; at most an hour, so a dead process's messages wait no longer`,
    }).default('2m'),
  })
  .superRefine((delivery, ctx) => {
    const ms = durationMs;
    if (ms(delivery.maxRetryAfter) < ms(delivery.firstRetryAfter))
      ctx.addIssue({
        code: 'custom',
        path: ['maxRetryAfter'],
        message: `expected the longest wait between retries to be at least the first, ${delivery.firstRetryAfter}; got ${delivery.maxRetryAfter}`,
      });
    if (ms(delivery.retryFor) < ms(delivery.firstRetryAfter))
      ctx.addIssue({
        code: 'custom',
        path: ['retryFor'],
        message: `expected to retry for at least the first wait, ${delivery.firstRetryAfter}, or nothing would ever be retried; got ${delivery.retryFor}`,
      });
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
