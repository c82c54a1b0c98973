import type { Actor, CommandInteraction, Reply } from '../../../ports/interaction.js';

export type { Dispatch } from '../../../inbound/guarded-dispatch.js';

/**
 * A command to answer, as plain data: it crosses a thread boundary today and could cross a queue
 * to another replica later, so it holds no functions, sockets or Bolt objects.
 */
export interface CommandRequest {
  actor: Actor;
  /** Everything after the command name. */
  text: string;
  channel: string | null;
  /** Slack's response_url: the answer can be POSTed there from anywhere. Null: the caller's Reply delivers it. */
  responseUrl: string | null;
  /** The caller's clock minus the real time, ms, so an answer computed elsewhere sees the same "now". */
  clockOffsetMs: number;
  /** Members of burnrate.yml's group and email role entries, as the main thread's directories say: set when a worker answers. */
  groups?: Record<string, readonly string[]>;
}

/**
 * Where slash-command answers are computed, once the command is acknowledged. In process (as
 * before, and for `:memory:` databases) or on worker threads, so that computing an answer never
 * delays the next acknowledgement.
 */
export interface Answerer {
  /**
   * Answers the command through `reply` (or the request's response_url); resolves once the answer
   * or an apology is delivered, or delivery failed and was logged. Never rejects.
   */
  answer(request: CommandRequest, reply: Reply): Promise<void>;
  /**
   * Whether a command taken now would be answered in reasonable time. False while too many answers
   * already wait: the caller turns the command away at once (busyMessage) instead of queueing it.
   */
  accepting(): boolean;
  /** Resolves once answers are computed where this answerer computes them (at once in process; workers: when started). */
  ready(): Promise<void>;
  /** Stops taking work, waits for answers in flight (up to a limit) and releases what it holds. */
  close(): Promise<void>;
  /** One line for the operator. */
  describe(): string;
}

/** Answers in flight get this long at shutdown before the rest are given up (and apologised for). */
export const DRAIN_TIMEOUT_MS = 10_000;

export function commandInteraction(request: CommandRequest, reply: Reply): CommandInteraction {
  return { kind: 'command', actor: request.actor, text: request.text, channel: request.channel, reply };
}
