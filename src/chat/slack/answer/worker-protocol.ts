import type { Config } from '../../../config/schema.js';
import type { Message } from '../../../../templates/message.js';
import type { CommandRequest } from './answerer.js';
import type { Actor } from '../../../ports/interaction.js';
import type { AppliedBudgetChange } from '../../../domain/budget-change.js';

/**
 * What an answer worker starts from: the same configuration and database as the main thread (the
 * SQLite file; null for Postgres, which the worker finds as the main thread did: config and environment).
 */
export interface AnswerWorkerData {
  config: Config;
  dbPath: string | null;
}

/** Main thread -> worker. */
export type ToWorker = { type: 'answer'; id: number; request: CommandRequest } | { type: 'close' };

/** Worker -> main thread. */
export type FromWorker =
  /** Started. `osThreadId`: the thread whose priority it lowered, null where it could not. */
  | { type: 'ready'; osThreadId: number | null }
  /**
   * Answered. `undelivered`: answers the worker had no way to send (no response_url); the main thread
   * sends them. `budgetChanges`: budgets the command changed, for the main thread to announce.
   */
  | { type: 'done'; id: number; undelivered: Message[]; budgetChanges?: { actor: Actor; change: AppliedBudgetChange }[] }
  /** The answer (or the dispatcher's own apology) could not be delivered. */
  | { type: 'failed'; id: number; error: string };
