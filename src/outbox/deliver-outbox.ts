import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { DeliveryError, LookupUnfinished, splitTarget, type ChatPort } from '../ports/chat-port.js';
import type { OutboxItem } from '../store/outbox-records.js';
import type { Store } from '../store/store.js';

export interface DeliveryOptions {
  /** Give up on an item after this many attempts (default: none; the retry budget decides). */
  maxAttempts?: number;
  /** Base of the exponential backoff between attempts. */
  baseDelayMs?: number;
  /** The longest wait between two attempts of one item. */
  maxDelayMs?: number;
  /** How long transient failures are retried, from an item's first failure (delivery.retryFor). */
  retryForMs?: number;
  /** How long one delivery holds an item before another may take it over (it must have crashed). */
  leaseMs?: number;
  /** Retry-After per platform and method, shared by the passes of one delivery loop. */
  gates?: ThrottleGates;
  /** Asked before each claim: true ends the pass there (serve is stopping; the rest waits in the outbox). */
  stopping?(): boolean;
  /** Told of each item that failed for good, with why (the loop tells burnrate's admins). */
  onFailed?(item: OutboxItem, error: string): Promise<void>;
}

export interface DeliveryReport {
  sent: number;
  retried: number;
  failed: number;
}

/** Until when (epoch ms) each `platform:method` must not be called: a throttle applies to every item. */
export type ThrottleGates = Map<string, number>;

export const DELIVERY_DEFAULTS = { baseDelayMs: 2_000, maxDelayMs: 5 * 60_000, retryForMs: 24 * 3_600_000, leaseMs: 2 * 60_000 };

/** How far before an in-doubt attempt a look for its message starts: the clocks of Slack and here differ. */
const LOOK_BACK_MS = 60_000;

type DeliveryDeps = { store: Pick<Store, 'outbox'>; chat: readonly ChatPort[]; clock: () => Date; log: Logger };

/**
 * One delivery pass: leases the next due item, sends it, settles it, until nothing is due. Items
 * go in order, each marked with the platform's reference before the next, so a thread reply
 * follows its parent within the same pass and a restart resumes without re-posting.
 *
 * Each item is leased before it is sent, so any number of passes (jobs of one process, several
 * processes on one database) post it once. Transient failures are retried with backoff for the
 * retry budget (24 h by default); a Retry-After holds back every item of that platform and method;
 * only permanent errors and a spent budget fail an item. An item whose last attempt may have
 * reached the platform is looked for before it is posted again, where the platform allows.
 */
export async function deliverOutbox(deps: DeliveryDeps, options: DeliveryOptions = {}): Promise<DeliveryReport> {
  const settings = { ...DELIVERY_DEFAULTS, ...options };
  const gates = options.gates ?? new Map<string, number>();
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const ports = new Map(deps.chat.map((p) => [p.platform, p]));
  const report: DeliveryReport = { sent: 0, retried: 0, failed: 0 };
  // Items of a platform that is not running here wait in the outbox for a process that runs it.
  const platforms = [...ports.keys()];
  while (!options.stopping?.()) {
    const now = deps.clock();
    const item = await deps.store.outbox.claimNext(owner, now, settings.leaseMs, platforms);
    if (!item) break;
    const { platform, address } = splitTarget(item.target);
    const port = ports.get(platform)!;
    const gate = gates.get(gateOf(item));
    if (gate !== undefined && gate > now.getTime()) {
      // The platform asked to wait for this method: the item waits too, unattempted.
      await deps.store.outbox.release(item.id, owner, new Date(gate));
      continue;
    }
    try {
      // Whatever came between the claim and the post (a look-up, a slow database, a paused process),
      // the lease must still be ours, by the database's clock, right before anything is posted.
      const lease = {
        hold: () => deps.store.outbox.renewLease(item.id, owner, settings.leaseMs),
        countSuspected: () => deps.store.outbox.markSuspectedDuplicate(item.id),
      };
      const result = await attempt(port, address, item, now, lease);
      if (!result) {
        deps.log.warn(
          { target: item.target, key: item.dedupeKey },
          'outbox item was taken over by another delivery before it was posted; left to it',
        );
        continue;
      }
      const { ref, suspectedDuplicate } = result;
      if (!(await deps.store.outbox.markSent(item.id, owner, ref, deps.clock(), { suspectedDuplicate }))) {
        // The post left after the lease was renewed, yet the lease ran out before it was recorded (a
        // stall of more than the lease): the delivery that took over may post it again, unchecked.
        await deps.store.outbox.markSuspectedDuplicate(item.id);
        deps.log.warn(
          { target: item.target, key: item.dedupeKey },
          'outbox item was taken over by another delivery while it was sent; counted as a suspected duplicate',
        );
      }
      if (suspectedDuplicate)
        deps.log.warn(
          { target: item.target, key: item.dedupeKey },
          'outbox item posted again after an attempt that may have reached the platform',
        );
      report.sent += 1;
    } catch (error) {
      const failure = error instanceof DeliveryError ? error : new DeliveryError((error as Error).message);
      const failedAt = deps.clock();
      const attempts = item.attempts + 1;
      const firstFailure = item.firstFailureAt ? new Date(item.firstFailureAt) : failedAt;
      const budgetSpent = failedAt.getTime() - firstFailure.getTime() >= settings.retryForMs;
      const giveUp = failure.permanent || budgetSpent || (settings.maxAttempts !== undefined && attempts >= settings.maxAttempts);
      const backoff = Math.min(settings.baseDelayMs * 2 ** Math.min(attempts - 1, 30), settings.maxDelayMs);
      // A look for a post in doubt that is not finished goes on when the platform lets it read again.
      const delay = failure.retryAfterMs ?? (failure instanceof LookupUnfinished ? failure.waitMs : undefined) ?? backoff;
      if (failure.retryAfterMs !== undefined) gates.set(gateOf(item), failedAt.getTime() + failure.retryAfterMs);
      const held = await deps.store.outbox.markRetry(item.id, owner, {
        error: failure.message,
        nextAttemptAt: new Date(failedAt.getTime() + delay),
        giveUp,
        inDoubt: item.inDoubt || failure.maybeDelivered,
        now: failedAt,
      });
      if (!held) {
        // Taken over while this attempt was under way (a stall past the lease): the delivery that
        // took over settles the item. A post of this attempt that may have arrived is unverifiable.
        if (failure.maybeDelivered) await deps.store.outbox.markSuspectedDuplicate(item.id);
        deps.log.warn(
          { target: item.target, key: item.dedupeKey, err: failure.message },
          `outbox item was taken over by another delivery while it was sent${failure.maybeDelivered ? '; counted as a suspected duplicate' : ''}`,
        );
        continue;
      }
      if (giveUp) {
        report.failed += 1;
        const why = failure.permanent
          ? 'the platform refused it for good'
          : `still failing after ${Math.round(settings.retryForMs / 60_000)} min of retries`;
        deps.log.error(
          { code: 'burnrate_delivery_failed', target: item.target, key: item.dedupeKey, attempts, err: failure.message },
          `outbox item failed: ${why}; fix the cause, then run: burnrate outbox retry --id ${item.id}`,
        );
        await settings
          .onFailed?.(item, failure.message)
          .catch((error: Error) => deps.log.error({ err: error.message }, 'could not queue the notice of a failed delivery'));
      } else {
        report.retried += 1;
        // An unfinished look is the platform's pace, not a failure: said once a look, quietly.
        if (failure instanceof LookupUnfinished)
          deps.log.info(
            { target: item.target, key: item.dedupeKey, why: failure.message, retryInMs: delay },
            'post in doubt: looking on later',
          );
        else deps.log.warn({ target: item.target, attempts, err: failure.message, retryInMs: delay }, 'outbox delivery failed, will retry');
      }
    }
  }
  return report;
}

/** Slack and Teams throttle per method: posts and replies share one, updates have another. */
function gateOf(item: OutboxItem): string {
  return `${splitTarget(item.target).platform}:${item.op === 'update' ? 'update' : 'post'}`;
}

/** Sends the item, or finds that an earlier attempt in doubt already did. */
async function attempt(
  port: ChatPort,
  address: string,
  item: OutboxItem,
  now: Date,
  lease: { hold(): Promise<boolean>; countSuspected(): Promise<void> },
): Promise<{ ref: string | null; suspectedDuplicate: boolean } | null> {
  if (item.op === 'update' && item.parentRef) {
    // Replacing a message with the same content twice changes nothing: no need to look first.
    if (!(await lease.hold())) return null;
    await port.update(address, item.parentRef, item.message);
    return { ref: item.parentRef, suspectedDuplicate: false };
  }
  let suspectedDuplicate = false;
  if (item.inDoubt) {
    const found = await lookFor(port, address, item, now);
    if (found.ref) return { ref: found.ref, suspectedDuplicate: false };
    suspectedDuplicate = !found.looked;
  }
  if (!(await lease.hold())) return null;
  const options = { key: item.dedupeKey };
  try {
    const posted =
      item.op === 'reply' && item.parentRef
        ? await port.reply(address, item.parentRef, item.message, options)
        : await port.post(address, item.message, options);
    return { ref: posted.ref, suspectedDuplicate };
  } catch (error) {
    // A post made unchecked that may have reached the platform (a 503, a lost answer) may be a second
    // copy: counted now, since a later attempt that finds the first copy cannot see this one.
    if (suspectedDuplicate && (!(error instanceof DeliveryError) || error.maybeDelivered)) await lease.countSuspected();
    throw error;
  }
}

/**
 * An item in doubt whose look-up keeps failing for now (the platform answers an error not known to
 * be permanent, a rate limit; not an outage) is posted unchecked from this attempt on, counted as a suspected duplicate, instead of waiting
 * out the whole retry budget (24 h) for a look-up that may never work.
 */
export const LOOKUP_ATTEMPTS = 3;

/**
 * Looks for the message of an item in doubt. A platform with no way to look, or a lookup refused
 * for good (a Slack app installed before it asked for channels:history), means posting again
 * unchecked; a lookup that fails for now is retried later like a failed post, until the item's
 * LOOKUP_ATTEMPTS-th attempt, which posts unchecked. A lookup that answers but is not finished
 * (LookupUnfinished: a page Slack may have cut short, one history call a minute) leaves the item in
 * doubt for its next attempt however many it takes, within the retry budget: it is neither posted
 * again nor dropped on a partial read.
 */
async function lookFor(port: ChatPort, address: string, item: OutboxItem, now: Date): Promise<{ ref: string | null; looked: boolean }> {
  if (!port.findPosted) return { ref: null, looked: false };
  const since = new Date(new Date(item.firstAttemptAt ?? now).getTime() - LOOK_BACK_MS);
  try {
    return {
      ref: await port.findPosted(address, item.dedupeKey, { since, parentRef: item.op === 'reply' ? item.parentRef : null }),
      looked: true,
    };
  } catch (error) {
    // Not finished (a page that may be cut short, the platform's read limit) is not failed: still in doubt.
    if (error instanceof LookupUnfinished) throw error;
    if (error instanceof DeliveryError && error.permanent) return { ref: null, looked: false };
    // Only an answer gives up the look: during an outage the post could be taken and answered 503.
    const answered = !(error instanceof DeliveryError && error.unreachable);
    if (answered && item.attempts + 1 >= LOOKUP_ATTEMPTS) return { ref: null, looked: false };
    throw error;
  }
}
