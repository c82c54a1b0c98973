import type { Logger } from 'pino';
import { DeliveryError, splitTarget, type ChatPort } from '../chat/chat-port.js';
import type { OutboxItem, Store } from '../store/store.js';

export interface DeliveryOptions {
  maxAttempts?: number;
  /** Base of the exponential backoff between attempts. */
  baseDelayMs?: number;
}

export interface DeliveryReport {
  sent: number;
  retried: number;
  failed: number;
}

/**
 * Sends what is due in the outbox, one item at a time, in order. A sent item is marked with the
 * platform's reference before the next one goes, so a restart resumes without re-posting.
 */
export async function deliverOutbox(
  deps: { store: Store; chat: readonly ChatPort[]; clock: () => Date; log: Logger },
  options: DeliveryOptions = {},
): Promise<DeliveryReport> {
  const maxAttempts = options.maxAttempts ?? 8;
  const baseDelayMs = options.baseDelayMs ?? 2_000;
  const ports = new Map(deps.chat.map((p) => [p.platform, p]));
  const report: DeliveryReport = { sent: 0, retried: 0, failed: 0 };
  for (const item of await deps.store.outbox.due(deps.clock())) {
    const { platform, address } = splitTarget(item.target);
    const port = ports.get(platform);
    if (!port) continue; // that platform is not running now; the item waits for it
    try {
      const ref = await send(port, address, item);
      await deps.store.outbox.markSent(item.id, ref, deps.clock());
      report.sent += 1;
    } catch (error) {
      const failure = error instanceof DeliveryError ? error : new DeliveryError((error as Error).message);
      const attempts = item.attempts + 1;
      const giveUp = failure.permanent || attempts >= maxAttempts;
      const delay = failure.retryAfterMs ?? baseDelayMs * 2 ** (attempts - 1);
      await deps.store.outbox.markRetry(item.id, failure.message, new Date(deps.clock().getTime() + delay), giveUp);
      deps.log.warn({ target: item.target, attempts, giveUp, err: failure.message }, 'outbox delivery failed');
      if (giveUp) report.failed += 1;
      else report.retried += 1;
    }
  }
  return report;
}

async function send(port: ChatPort, address: string, item: OutboxItem): Promise<string | null> {
  if (item.op === 'post' || !item.parentRef) return (await port.post(address, item.message)).ref;
  if (item.op === 'reply') return (await port.reply(address, item.parentRef, item.message)).ref;
  await port.update(address, item.parentRef, item.message);
  return item.parentRef;
}
