// better-sqlite3 answers synchronously, so a run of store calls awaited one after another (a check,
// the first run of serve) is a chain of promises that are already settled: the event loop never
// gets a turn while it lasts, and a Slack ack or a health probe that arrived meanwhile waits for the
// whole chain (seconds at a start). A read outside a transaction lets the loop take a turn once the
// work since the last turn passed a slice; ordinary commands, shorter than that, hardly ever wait.
// So does a long insert inside a transaction (an import's rows), between rows. Other writes do
// not: one that meets another process's write lock blocks the thread either way. Long CPU work
// with pauses of its own (the demo source building its bill) takes the same slices.

/** The longest the thread keeps the loop waiting between two turns it gives, ms. */
const SLICE_MS = 8;

// The timers as they were when the store loaded: a test that fakes timers later still gets real turns.
const realSetImmediate = globalThis.setImmediate;
const realNow = performance.now.bind(performance);

let sliceStart = realNow();

/** Resolves at once within a slice; past it, after one turn of the event loop (I/O, timers, acks). */
export async function loopTurnIfDue(): Promise<void> {
  if (realNow() - sliceStart < SLICE_MS) return;
  await new Promise<void>((resolve) => realSetImmediate(resolve));
  sliceStart = realNow();
}
