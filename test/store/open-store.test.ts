import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../fixtures/store/sqlite-steps.js';
import { openStore } from '../../src/store/sqlite/open-sqlite-store.js';

describe('SQLite store', () => {
  it('migrates a new file in WAL mode and records the schema version', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'burnrate-store-')), 'nested', 'burnrate.db');
    const store = openStore(path);
    await store.close();
    const db = new Database(path);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
    await openStore(path).close(); // opening again migrates nothing and keeps working
  });

  describe('daily spend per team (the rollup budget checks read)', () => {
    /** The same sums straight from the cost lines: what the rollup must always equal. */
    const fromLines = (path: string) => {
      const db = new Database(path, { readonly: true });
      const sums = db
        .prepare(
          `SELECT team, day, currency, cost_kind AS kind, sum(billed) AS billed, sum(effective) AS effective
           FROM spend_daily GROUP BY team, day, currency, cost_kind ORDER BY team, day, currency, cost_kind`,
        )
        .all();
      db.close();
      return sums;
    };
    const rollup = async (store: ReturnType<typeof openStore>) =>
      [...(await store.spend.dailyByTeam('2000-01-01'))].sort(
        (x, y) =>
          x.team.localeCompare(y.team) ||
          x.day.localeCompare(y.day) ||
          x.currency.localeCompare(y.currency) ||
          x.kind.localeCompare(y.kind),
      );

    it('is filled from the cost lines already there when a database is upgraded', async () => {
      const path = join(mkdtempSync(join(tmpdir(), 'burnrate-store-')), 'burnrate.db');
      // A database of the version before the rollup, with cost lines in it.
      const before = MIGRATIONS.findIndex((m) => m.includes('CREATE TABLE spend_team_days'));
      const db = new Database(path);
      MIGRATIONS.slice(0, before).forEach((m) => db.exec(m));
      db.pragma(`user_version = ${before}`);
      const insert = db.prepare(
        `INSERT INTO spend_daily (source, billing_period, billing_account, day, team, provider, service, charge_category, currency, billed, effective)
         VALUES ('focus', '2026-11', '111', ?, ?, 'AWS', 'EC2', 'Usage', 'USD', 10, 9)`,
      );
      insert.run('2026-11-03', 'a');
      insert.run('2026-11-04', 'b');
      db.close();
      const upgraded = openStore(path);
      expect(await rollup(upgraded)).toEqual(fromLines(path));
      expect(await rollup(upgraded)).toHaveLength(2);
      await upgraded.close();
    });
  });

  it('queues each outbox message once, whatever the number of retries', async () => {
    const store = openStore(':memory:');
    const draft = { dedupeKey: 'k1', target: 'terminal:a', message: { summary: 's', blocks: [] } };
    const now = new Date('2026-11-21T08:00:00Z');
    expect(await store.outbox.enqueue([draft], now)).toBe(1);
    expect(await store.outbox.enqueue([draft], now)).toBe(0);
    const item = await store.outbox.claimNext('me', now, 60_000, ['terminal']);
    expect(await store.outbox.markSent(item!.id, 'me', 'ts-1', now)).toBe(true);
    expect(await store.outbox.due(now)).toEqual([]);
  });
});
