import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { SpendBatch, SpendRow } from '../../src/domain/spend.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { openStore } from '../../src/store/open-store.js';

const row = (over: Partial<SpendRow> = {}): SpendRow => ({
  day: '2026-11-03',
  billingPeriod: '2026-11',
  team: 'a',
  ownerTag: 'a',
  provider: 'AWS',
  billingAccount: '111',
  subAccount: null,
  service: 'EC2',
  serviceCategory: 'Compute',
  resourceId: 'i-1',
  chargeCategory: 'Usage',
  pricingCategory: 'Standard',
  currency: 'USD',
  billed: 10,
  effective: 9,
  ...over,
});

const batch = (rows: SpendRow[], through = '2026-11-04T00:00:00Z'): SpendBatch => ({
  scope: { source: 'focus', billingPeriods: ['2026-11'], billingAccounts: ['111'] },
  rows,
  dataThrough: through,
});

const november = { start: '2026-11-01', end: '2026-12-01' };

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

  it('replaces a billing period of an account on re-import instead of adding to it', async () => {
    const store = openStore(':memory:');
    await store.importBatches([batch([row(), row({ day: '2026-11-04' })])]);
    const again = await store.importBatches([batch([row({ billed: 25 })])]);
    expect(again).toMatchObject({ rowsDeleted: 2, rowsInserted: 1 });
    expect(await store.spend.totals({ period: november }, 'team')).toEqual([{ key: 'a', currency: 'USD', billed: 25, effective: 9 }]);
  });

  it('keeps other accounts and periods when replacing one', async () => {
    const store = openStore(':memory:');
    await store.importBatches([batch([row()])]);
    await store.importBatches([
      {
        ...batch([row({ billingAccount: '222', billed: 5 })]),
        scope: { source: 'focus', billingPeriods: ['2026-11'], billingAccounts: ['222'] },
      },
    ]);
    expect((await store.spend.totals({ period: november }, 'team'))[0]?.billed).toBe(15);
  });

  it('writes nothing when any row of an import is invalid', async () => {
    const store = openStore(':memory:');
    await store.importBatches([batch([row()])]);
    const broken = row({ currency: null as unknown as string });
    await expect(store.importBatches([batch([row({ billed: 99 }), broken])])).rejects.toThrow();
    expect(await store.spend.totals({ period: november }, 'team')).toEqual([{ key: 'a', currency: 'USD', billed: 10, effective: 9 }]);
    expect((await store.freshness.list())[0]?.dataThrough).toBe('2026-11-04T00:00:00Z');
  });

  it('groups totals by every dimension and filters by team', async () => {
    const store = openStore(':memory:');
    await store.importBatches([batch([row(), row({ team: 'b', service: 'S3', resourceId: null, billed: 1, effective: 1 })])]);
    expect(await store.spend.totals({ period: november }, 'service')).toEqual([
      { key: 'EC2', currency: 'USD', billed: 10, effective: 9 },
      { key: 'S3', currency: 'USD', billed: 1, effective: 1 },
    ]);
    expect((await store.spend.totals({ period: november, teams: ['b'] }, 'resource'))[0]?.key).toBe('(no resource id)');
    expect(await store.spend.totals({ period: november, teams: [] }, 'team')).toEqual([]);
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

    it('follows every import: new days, a replaced period, another account, replaced days, an emptied scope', async () => {
      const path = join(mkdtempSync(join(tmpdir(), 'burnrate-store-')), 'burnrate.db');
      const store = openStore(path);
      const check = async () => expect(await rollup(store)).toEqual(fromLines(path));
      await store.importBatches([batch([row(), row({ day: '2026-11-04' }), row({ team: 'b', billed: 3, effective: 2 })])]);
      await check();
      // The period again, with a day gone and another changed: the gone day must leave the rollup.
      await store.importBatches([batch([row({ billed: 25 })])]);
      await check();
      expect(await rollup(store)).toEqual([{ team: 'a', day: '2026-11-03', currency: 'USD', kind: 'usage', billed: 25, effective: 9 }]);
      await store.importBatches([
        {
          ...batch([row({ billingAccount: '222', billed: 5, effective: 5 })]),
          scope: { source: 'focus', billingPeriods: ['2026-11'], billingAccounts: ['222'] },
        },
      ]);
      await check();
      // A cloud API's incremental pull replaces some days of another source.
      const days = { start: '2026-11-02', end: '2026-11-05' };
      await store.importBatches([
        {
          scope: { source: 'aws', billingPeriods: ['2026-11'], days },
          rows: [row({ day: '2026-11-02', team: 'b' }), row({ day: '2026-11-04', team: 'c' })],
          dataThrough: null,
        },
      ]);
      await store.importBatches([
        {
          scope: { source: 'aws', billingPeriods: ['2026-11'], days },
          rows: [row({ day: '2026-11-03', team: 'b', billed: 1 })],
          dataThrough: null,
        },
      ]);
      await check();
      // Everything of account 111 gone: only account 222 and the aws day remain.
      await store.importBatches([batch([])]);
      await check();
      expect(await rollup(store)).toEqual([
        { team: 'a', day: '2026-11-03', currency: 'USD', kind: 'usage', billed: 5, effective: 5 },
        { team: 'b', day: '2026-11-03', currency: 'USD', kind: 'usage', billed: 1, effective: 9 },
      ]);
      await store.close();
    });

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
    const item = await store.outbox.claimNext('me', now, new Date(now.getTime() + 60_000), ['terminal']);
    expect(await store.outbox.markSent(item!.id, 'me', 'ts-1', now)).toBe(true);
    expect(await store.outbox.due(now)).toEqual([]);
  });
});
