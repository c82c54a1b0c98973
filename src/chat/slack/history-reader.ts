import { DeliveryError, LookupUnfinished } from '../../ports/chat-port.js';
import type { SlackConfig } from '../../config/slack-schema.js';

export type HistoryLimit = SlackConfig['historyLimit'];

/** Slack's Tier-1 reading of history for distributed apps outside the Marketplace: 15 a page, one call a minute. */
export const TIER1_PAGE = 15;
export const TIER1_INTERVAL_MS = 60_000;
/** Marketplace and single-workspace apps read up to 200 a page; one look reads at most this many pages. */
const FULL_PAGE = 200;
const PAGES_PER_LOOK = 5;
/** Looks under way, remembered between attempts; past this many the oldest is forgotten (it starts over). */
const MAX_LOOKS = 1_000;
/** burnrate's own messages seen in pages read, kept for the looks of other posts in doubt; at most this many. */
const MAX_SEEN = 1_000;
/** How far past now a look reads: the clocks of Slack and here differ. */
const LOOK_AHEAD_MS = 60_000;

/** Slack timestamps `1700000000.000123`, inclusive at both ends. */
export interface HistoryWindow {
  oldest: string;
  latest: string;
}

export interface HistoryMessage {
  ts?: string | undefined;
}

export interface HistoryPage<M extends HistoryMessage> {
  messages: M[];
  hasMore: boolean;
}

/** What one look reads and looks for: conversations.history (newest first) or .replies (oldest first). */
export interface HistoryLook<M extends HistoryMessage> {
  /** Tells looks apart between attempts: the outbox item's key. */
  key: string;
  /** Epoch ms from which the message may have been posted. */
  since: number;
  order: 'newest-first' | 'oldest-first';
  read(window: HistoryWindow, limit: number): Promise<HistoryPage<M>>;
  /** The message's reference when this message is the one looked for. */
  match(message: M): string | null;
  /** What marks the message looked for (its key in metadata, its file's tag), and what marks a message read. */
  marks: readonly string[];
  marksOf(message: M): readonly string[];
}

/**
 * Reads one workspace's history within Slack's limits, for the look-up of a post in doubt. Each
 * look reads one narrow window, newest page first; a page that may have been cut short (more to
 * come, a full page, or exactly 15 where more were asked: Slack's silent Tier-1 cap) never means
 * "not posted": the window shrinks past what the page covered and the look goes on, in the same
 * attempt where the workspace allows more calls, else at the next attempt (LookupUnfinished). Under
 * `limited` (or once Slack answered a read with a throttle or a silently short page) it spends at
 * most one call a minute on the workspace, whatever the number of items in doubt.
 */
export class HistoryReader {
  private limited: boolean;
  /** Epoch ms before which the workspace's next history call must not be made. */
  private nextCallAt = 0;
  /** A history read has been answered in this process: the app may read this workspace's history. */
  private readWorked = false;
  /** What is left to read of each look under way. */
  private readonly left = new Map<string, HistoryWindow>();
  /**
   * burnrate's messages that pages read for one look showed, by their marks: another post in doubt
   * found among them needs no call of its own (after an outage, one page can settle several).
   */
  private readonly seen = new Map<string, unknown>();

  constructor(
    limit: HistoryLimit,
    private readonly now: () => number = Date.now,
  ) {
    this.limited = limit === 'limited';
  }

  async find<M extends HistoryMessage>(look: HistoryLook<M>): Promise<string | null> {
    // A look goes on where the last attempt left it; the message, if posted, is older than its first call.
    let rest = this.left.get(look.key) ?? windowOf(look.since, this.now() + LOOK_AHEAD_MS);
    for (const mark of look.marks) {
      // Kept by a look of this same reader over the same workspace, so of the look's message type.
      const ref = this.seen.has(mark) ? look.match(this.seen.get(mark) as M) : null;
      if (ref) return this.settle(look.key, ref);
    }
    for (let call = 0; call < (this.limited ? 1 : PAGES_PER_LOOK); call++) {
      this.waitForTurn();
      const limit = this.limited ? TIER1_PAGE : FULL_PAGE;
      if (this.limited) this.nextCallAt = this.now() + TIER1_INTERVAL_MS;
      const page = await this.read(look, rest, limit);
      this.keep(page.messages, look);
      for (const message of page.messages) {
        const ref = look.match(message);
        if (ref) return this.settle(look.key, ref);
      }
      const silentlyCapped = limit > TIER1_PAGE && page.messages.length === TIER1_PAGE;
      if (!page.hasMore && page.messages.length < limit && !silentlyCapped) return this.settle(look.key, null);
      if (silentlyCapped) this.throttle(TIER1_INTERVAL_MS);
      const narrowed = narrow(rest, page.messages, look.order);
      if (narrowed === 'covered') return this.settle(look.key, null);
      rest = narrowed;
      this.remember(look.key, rest);
    }
    throw new LookupUnfinished(
      `Slack history: the window is not read to its end yet; ${this.limited ? 'one call a minute, ' : ''}looking on later`,
      this.limited ? Math.max(0, this.nextCallAt - this.now()) : undefined,
    );
  }

  private waitForTurn(): void {
    const wait = this.nextCallAt - this.now();
    if (wait > 0)
      throw new LookupUnfinished(`Slack history: one call a minute on this workspace; looking in ${Math.ceil(wait / 1000)} s`, wait);
  }

  private async read<M extends HistoryMessage>(look: HistoryLook<M>, window: HistoryWindow, limit: number): Promise<HistoryPage<M>> {
    try {
      const page = await look.read(window, limit);
      this.readWorked = true;
      return page;
    } catch (error) {
      if (!(error instanceof DeliveryError)) throw error;
      // A throttle with Retry-After is Slack's Tier-1 answer: from now on one call a minute, and the
      // item waits in doubt.
      if (error.retryAfterMs !== undefined) {
        this.throttle(Math.max(error.retryAfterMs, TIER1_INTERVAL_MS));
        throw new LookupUnfinished(`${error.message}; one call a minute from now on`, this.nextCallAt - this.now());
      }
      // Once a read has worked, the workspace lets this app read its history: an error that may pass
      // (not a refusal for good) leaves the item in doubt for the next attempt, rather than counting
      // towards posting it unchecked. Before that, failures go to the outbox as they are.
      if (!error.permanent && this.readWorked) throw new LookupUnfinished(`${error.message}; the look goes on later`);
      throw error;
    }
  }

  private throttle(forMs: number): void {
    this.limited = true;
    this.nextCallAt = Math.max(this.nextCallAt, this.now() + forMs);
  }

  private keep<M extends HistoryMessage>(messages: readonly M[], look: HistoryLook<M>): void {
    for (const message of messages)
      for (const mark of look.marksOf(message)) {
        this.seen.delete(mark);
        this.seen.set(mark, message);
      }
    for (const oldest of this.seen.keys()) {
      if (this.seen.size <= MAX_SEEN) break;
      this.seen.delete(oldest);
    }
  }

  private settle(key: string, ref: string | null): string | null {
    this.left.delete(key);
    return ref;
  }

  private remember(key: string, rest: HistoryWindow): void {
    this.left.delete(key);
    this.left.set(key, rest);
    for (const oldest of this.left.keys()) {
      if (this.left.size <= MAX_LOOKS) break;
      this.left.delete(oldest);
    }
  }
}

/**
 * The part of `window` a page did not cover: before its oldest message when the page came newest
 * first, after its newest when oldest first; `covered` when nothing is left. Messages outside the
 * window (a thread's parent, which .replies always returns) tell nothing about it, so a full page of
 * them leaves the look unfinished.
 */
function narrow(
  window: HistoryWindow,
  messages: readonly HistoryMessage[],
  order: HistoryLook<HistoryMessage>['order'],
): HistoryWindow | 'covered' {
  const inside = messages
    .flatMap((m) => (m.ts ? [micros(m.ts)] : []))
    .filter((t) => t >= micros(window.oldest) && t <= micros(window.latest));
  if (inside.length === 0)
    throw new LookupUnfinished('Slack history: a full page with nothing in the window asked for; looking again later');
  const next =
    order === 'newest-first'
      ? { oldest: window.oldest, latest: slackTs(inside.reduce((a, b) => (a < b ? a : b)) - 1n) }
      : { oldest: slackTs(inside.reduce((a, b) => (a > b ? a : b)) + 1n), latest: window.latest };
  return micros(next.oldest) <= micros(next.latest) ? next : 'covered';
}

/** A Slack timestamp in microseconds, exactly (a double would round the last digits). */
function micros(ts: string): bigint {
  const [seconds = '0', fraction = ''] = ts.split('.');
  return BigInt(seconds) * 1_000_000n + BigInt(fraction.padEnd(6, '0').slice(0, 6) || '0');
}

function slackTs(us: bigint): string {
  return `${us / 1_000_000n}.${String(us % 1_000_000n).padStart(6, '0')}`;
}

/** The window from `since` to `until` (epoch ms), as Slack timestamps. */
function windowOf(since: number, until: number): HistoryWindow {
  return { oldest: slackTs(BigInt(Math.floor(since)) * 1_000n), latest: slackTs(BigInt(Math.ceil(until)) * 1_000n) };
}
