import type { Message } from '../../templates/message.js';

// The outbox's records carry a rendered template Message, so they live with the outbox rather than
// in domain/ (which imports nothing but domain/).

/** pending: waits for its attempt; sending: leased by one delivery; sent; failed: gave up (permanent error or retry budget spent). */
export type OutboxStatus = 'pending' | 'sending' | 'sent' | 'failed';

export interface OutboxItem {
  id: number;
  dedupeKey: string;
  target: string;
  message: Message;
  status: OutboxStatus;
  attempts: number;
  nextAttemptAt: string;
  ref: string | null;
  lastError: string | null;
  op: 'post' | 'update' | 'reply';
  /** The platform reference of the parent item, for updates and replies. */
  parentRef: string | null;
  /** The last attempt may have reached the platform (a crash or a lost answer): look before posting again. */
  inDoubt: boolean;
  /** When the first attempt started: a message in doubt was posted after this. */
  firstAttemptAt: string | null;
  /** When the first failed attempt happened; the retry budget counts from here. */
  firstFailureAt: string | null;
}

/** How a failed attempt ends: back to pending at `nextAttemptAt`, or failed for good. */
export interface OutboxFailure {
  error: string;
  nextAttemptAt: Date;
  giveUp: boolean;
  /** The platform may have taken the message although the call failed (a timeout, a reset). */
  inDoubt: boolean;
  now: Date;
}

/** What the outbox holds, for /readyz, `burnrate status` and /metrics. */
export interface OutboxSummary {
  pending: number;
  /** Pending items whose last attempt failed: the chat platform is refusing or down. */
  failing: number;
  sending: number;
  sent: number;
  failed: number;
  /** Items posted again after an attempt that may have reached the platform, unchecked. */
  suspectedDuplicates: number;
  /** The oldest item still waiting, or null. */
  oldestPendingAt: string | null;
}

export interface OutboxDraft {
  /** Unique per intended message: enqueueing the same key twice sends once. */
  dedupeKey: string;
  /** `platform:address`, e.g. `slack:C0123ABCD` or `terminal:ml-research`. */
  target: string;
  message: Message;
  /** post (default), or update of / reply in the thread of the item whose key is `parentKey`. */
  op?: 'post' | 'update' | 'reply';
  parentKey?: string;
  /** For a post that starts alert groups' threads: the groups, so later changes find it. */
  threadOf?: string | readonly string[];
}
