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

  it('gives turns during a long insert inside a transaction, while a read from outside waits for the commit', async () => {
    const session = sqliteSession(new Database(':memory:'));
    await session.run('CREATE TABLE t (n INTEGER)');
    const rows = 20_000;
    let turnDuringInsert = false;
    let seenFromOutside: number | null = null;
    let inserting = true;
    await session.transaction(async (tx) => {
      setImmediate(() => {
        turnDuringInsert = inserting;
        // A caller outside the transaction, as a command on the same connection would be: it waits its turn.
        void session.one<{ n: number }>('SELECT count(*) AS n FROM t').then((row) => (seenFromOutside = row!.n));
      });
      function* values() {
        for (let i = 0; i < rows; i++) {
          if (i % 1000 === 0) busyFor(2);
          yield [i];
        }
      }
      expect(await tx.insertRows('t', [{ name: 'n', type: 'bigint' }], values())).toBe(rows);
      inserting = false;
      expect(seenFromOutside).toBeNull();
    });
    expect(turnDuringInsert).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seenFromOutside).toBe(rows);
  });
});
