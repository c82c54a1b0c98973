import type { Config } from '../../config/schema.js';
import type { Message } from '../../../templates/message.js';
import type { CommandRequest } from './answerer.js';

/** What an answer worker starts from: the same configuration and database file as the main thread. */
export interface AnswerWorkerData {
  config: Config;
  dbPath: string;
}

/** Main thread -> worker. */
export type ToWorker = { type: 'answer'; id: number; request: CommandRequest } | { type: 'close' };

/** Worker -> main thread. */
export type FromWorker =
  /** Started. `osThreadId`: the thread whose priority it lowered, null where it could not. */
  | { type: 'ready'; osThreadId: number | null }
  /** Answered. `undelivered`: answers the worker had no way to send (no response_url); the main thread sends them. */
  | { type: 'done'; id: number; undelivered: Message[] }
  /** The answer (or the dispatcher's own apology) could not be delivered. */
  | { type: 'failed'; id: number; error: string };
