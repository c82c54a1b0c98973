// An answer worker: its own event loop, its own connection to the same SQLite file (WAL lets
// readers and one writer share it), the same dispatcher and command files as the main thread.
// Started by chat/slack/answer/worker-answerer.ts; never imported by anything else. A composition root of
// its own: it builds a runtime without chat platforms (its answers go to Slack's response_url, or back
// to the main thread), so it sits beside runtime.ts, above chat/.

import { parentPort, workerData } from 'node:worker_threads';
import type { Message } from '../templates/message.js';
import { buildRuntime } from './runtime.js';
import { KnownGroups } from './ports/named-people.js';
import type { Actor } from './ports/interaction.js';
import type { AppliedBudgetChange } from './domain/budget-change.js';
import { dispatch } from './inbound/dispatcher.js';
import type { Reply } from './ports/interaction.js';
import { responseUrlReply } from './chat/slack/response-url-reply.js';
import { commandInteraction, type CommandRequest } from './chat/slack/answer/answerer.js';
import { lowerThreadPriority } from './chat/slack/answer/lower-thread-priority.js';
import type { AnswerWorkerData, FromWorker, ToWorker } from './chat/slack/answer/worker-protocol.js';

const port = parentPort;
if (!port) throw new Error('answer-worker runs as a worker thread only');

const { config, dbPath } = workerData as AnswerWorkerData;
// The environment is the one the main thread was given (Worker `env`): log level, Slack settings.
const runtime = await buildRuntime({ config, ...(dbPath === null ? {} : { dbPath }), env: process.env, chatPlatforms: false });
const inFlight = new Set<Promise<void>>();
const send = (message: FromWorker) => port.postMessage(message);

port.on('message', (message: ToWorker) => {
  if (message.type === 'close') {
    void close();
    return;
  }
  const done = answer(message.id, message.request).finally(() => inFlight.delete(done));
  inFlight.add(done);
});
// Started at full priority, so that a busy machine does not keep it loading (and a shutdown does not
// find it half started); from now on acknowledging within Slack's 3 s goes first when cores are
// short, and answers wait their turn.
send({ type: 'ready', osThreadId: lowerThreadPriority() });

async function answer(id: number, request: CommandRequest): Promise<void> {
  const undelivered: Message[] = [];
  const reply: Reply = request.responseUrl
    ? responseUrlReply(request.responseUrl)
    : { private: async (message) => void undelivered.push(message) };
  const budgetChanges: { actor: Actor; change: AppliedBudgetChange }[] = [];
  const deps = {
    ...runtime.deps,
    clock: () => new Date(Date.now() + request.clockOffsetMs),
    // No chat port here: groups hold their roles as the main thread's directories said.
    people: request.groups ? [new KnownGroups(request.groups)] : [],
    budgetChanged: (actor: Actor, change: AppliedBudgetChange) => void budgetChanges.push({ actor, change }),
  };
  try {
    // The dispatcher turns a command's errors into a private message; it throws only when replying failed.
    await dispatch(deps, commandInteraction(request, reply));
    send({ type: 'done', id, undelivered, ...(budgetChanges.length > 0 ? { budgetChanges } : {}) });
  } catch (error) {
    send({ type: 'failed', id, error: (error as Error).message });
  }
}

/** The main thread drains before it asks, so normally nothing is in flight here. */
async function close(): Promise<void> {
  await Promise.allSettled([...inFlight]);
  await runtime.close();
  process.exit(0);
}
