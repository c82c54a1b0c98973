import type { Deps } from '../../../deps.js';
import { commandInteraction, DRAIN_TIMEOUT_MS, type Answerer, type Dispatch } from './answerer.js';
import { settleWithin } from './settle-within.js';

/**
 * Answers on the event loop that acknowledged the command: the simplest way, and the only one for
 * a `:memory:` database, which no other thread can open. Shutdown still waits for answers in flight.
 */
export function inProcessAnswerer(deps: Deps, dispatch: Dispatch): Answerer {
  const inFlight = new Set<Promise<void>>();
  return {
    answer(request, reply) {
      const done = dispatch(deps, commandInteraction(request, reply))
        // The dispatcher already answers its own errors; what reaches here is a reply that failed.
        .catch((error: unknown) => deps.log.error({ err: (error as Error).message }, 'answer could not be delivered'))
        .finally(() => inFlight.delete(done));
      inFlight.add(done);
      return done;
    },
    // Nothing queues here: each answer runs as soon as its command is acknowledged.
    accepting: () => true,
    ready: async () => {},
    async close() {
      await settleWithin([...inFlight], DRAIN_TIMEOUT_MS);
    },
    describe: () => 'answers: computed in process',
  };
}
