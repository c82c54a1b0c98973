import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { sqliteSession } from '../../src/store/sqlite/sqlite-dialect.js';

/** Keeps the thread busy as a check's own computing does between two store calls. */
function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('a long run of SQLite reads', () => {
  it('gives the event loop a turn, so a request that arrived meanwhile is answered before the run ends', async () => {
    const session = sqliteSession(new Database(':memory:'));
    let answeredAfterReads: number | null = null;
    let reads = 0;
    // Stands in for an ack: I/O waiting for the loop's next turn.
    setImmediate(() => (answeredAfterReads = reads));
    for (let i = 0; i < 20; i++) {
      expect(await session.one<{ n: number }>('SELECT ? AS n', [i])).toEqual({ n: i });
      reads++;
      busyFor(10);
    }
    // Every read resolves at once when the thread is idle; past a slice of busy work one waits a turn.
    expect(answeredAfterReads).not.toBeNull();
    expect(answeredAfterReads).toBeLessThan(3);
  });

  it('never gives the turn inside a transaction, which holds the write lock', async () => {
    const session = sqliteSession(new Database(':memory:'));
    let turned = false;
    await session.transaction(async (tx) => {
      setImmediate(() => (turned = true));
      for (let i = 0; i < 5; i++) {
        await tx.one('SELECT 1 AS one');
        busyFor(10);
      }
      expect(turned).toBe(false);
    });
  });
});
