import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { Logger } from 'pino';
import type { RecentDeliveries } from './recent-deliveries.js';

/**
 * The keys that name one Slack delivery, whichever way it came:
 * - `envelope:` the Socket Mode envelope_id (a resent envelope keeps it);
 * - `command:` a slash command's trigger_id (unique per invocation);
 * - `action:` a button click: trigger_id, action_ts, user and action id (unique per click).
 * Events, modal submissions and the rest carry none: Slack marks their redeliveries with a retry
 * number instead, and a replayed HTTP request cannot pass the 5-minute timestamp check for long.
 */
export function deliveryKeys(body: unknown, envelopeId: unknown): string[] {
  const keys: string[] = [];
  if (typeof envelopeId === 'string' && envelopeId !== '') keys.push(`envelope:${envelopeId}`);
  if (typeof body !== 'object' || body === null) return keys;
  const b = body as Record<string, unknown>;
  const trigger = typeof b.trigger_id === 'string' ? b.trigger_id : '';
  if (typeof b.command === 'string' && trigger) keys.push(`command:${trigger}`);
  if (b.type === 'block_actions' && Array.isArray(b.actions)) {
    const action = (b.actions[0] ?? {}) as Record<string, unknown>;
    const user = (b.user ?? {}) as Record<string, unknown>;
    const ts = typeof action.action_ts === 'string' ? action.action_ts : '';
    if (trigger || ts) keys.push(`action:${trigger}:${ts}:${String(user.id)}:${String(action.action_id)}`);
  }
  return keys;
}

/**
 * Claims a delivery's keys for every process on the database (the store's inbound claims), so a
 * delivery that reached two replicas runs on one; true when this process has it.
 */
export type SharedClaim = (keys: readonly string[]) => Promise<boolean>;

/** What says a delivery is a repeat: Slack's retry number (HTTP header or Socket Mode envelope), the payload, its envelope. */
export interface Delivery {
  retryNum?: number | undefined;
  retryReason?: string | undefined;
  body: unknown;
  envelopeId?: unknown;
}

/**
 * The one guard against running a Slack delivery twice, asked before anything runs:
 * - a delivery Slack marks as a retry (x-slack-retry-num over HTTP, retry_attempt above 0 in
 *   Socket Mode) is dropped: the first delivery is already being handled (acks come first);
 * - a delivery whose keys (deliveryKeys) were seen within the expiry is dropped: a resent envelope,
 *   a replayed signed request, a double-delivered click. This process's memory answers first;
 *   the shared claim then settles it between replicas. When the database cannot say, the delivery
 *   runs: an action's own claim (stop, approve) still keeps it from acting twice.
 * Resolves true when the delivery is to run; a dropped one is logged here, and the caller only acknowledges it.
 */
export function deliveryGuard(recent: RecentDeliveries, log: Logger, shared?: SharedClaim): (delivery: Delivery) => Promise<boolean> {
  const claimShared = async (keys: readonly string[]) => {
    if (!shared || keys.length === 0) return true;
    try {
      return await shared(keys);
    } catch (error) {
      log.warn({ err: (error as Error).message }, 'slack delivery claim failed; handling the delivery');
      return true;
    }
  };
  return async ({ retryNum, retryReason, body, envelopeId }) => {
    const retry = (retryNum ?? 0) > 0;
    const keys = retry ? [] : deliveryKeys(body, envelopeId);
    if (!retry && recent.firstTime(keys) && (await claimShared(keys))) return true;
    if (retry) log.info({ retryNum, reason: retryReason }, 'slack retry dropped');
    else log.info({ type: (body as { type?: unknown }).type ?? 'command' }, 'slack duplicate delivery dropped');
    return false;
  };
}

/**
 * deliveryGuard first in Bolt's middleware chain: a dropped delivery is acknowledged, so Slack stops
 * sending it, and nothing else happens. (No rest destructuring of the arguments: it would copy them
 * on every request, before the ack.)
 */
export function dropRedeliveries(guard: (delivery: Delivery) => Promise<boolean>): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    const { context, body, next } = args;
    if (await guard({ retryNum: context.retryNum, retryReason: context.retryReason, body, envelopeId: context.envelopeId })) return next();
    const ack = (args as { ack?: () => Promise<void> }).ack;
    if (ack) await ack();
  };
}
