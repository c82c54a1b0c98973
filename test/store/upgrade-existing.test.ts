import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { openPostgresStore } from '../../src/store/postgres/open-postgres-store.js';
import { openStore } from '../../src/store/sqlite/open-sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { describePostgres, freshDatabase } from '../support/postgres.js';

// Databases written by the code before the store was written once (the fixtures are dumps of
// them, with a few rows): opened by today's store, they keep every row (the three findings tables'
// rows all in the one findings table), record the one migration list, and answer with what was written.

/** The tables of findings the one findings table replaced. */
const MERGED = ['findings', 'gpu_findings', 'sweep_findings'];

/** Row counts per table, the merged tables' rows counted as the one findings table's. */
function asMerged(counts: [string, number][]): [string, number][] {
  const merged = counts.filter(([t]) => MERGED.includes(t)).reduce((sum, [, n]) => sum + n, 0);
  const rest = counts.filter(([t]) => !MERGED.includes(t) && t !== 'check_findings');
  const findings = counts.find(([t]) => t === 'check_findings')?.[1] ?? merged;
  return [...rest, ['check_findings', findings] as [string, number]].sort(([a], [b]) => (a < b ? -1 : 1));
}

/** Every table of the old database keeps its rows; tables later migrations add (action_proposals) start empty. */
function expectRowsKept(after: [string, number][], before: [string, number][]): void {
  const old = new Set(before.map(([t]) => t));
  expect(after.filter(([t]) => old.has(t))).toEqual(before);
  expect(after.filter(([t, n]) => !old.has(t) && n > 0)).toEqual([]);
}

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../fixtures/store', name), 'utf8');

/** What the fixtures hold, as the old code wrote it. */
async function expectFixtureRows(store: Store): Promise<void> {
  expect((await store.findings.listOpen()).map((f) => f.id)).toEqual(['budget:ml:2026-11:80']);
  expect((await store.outbox.due(new Date('2026-11-07T00:00:00Z'))).map((i) => i.dedupeKey)).toEqual(['alert-1']);
  expect((await store.audit.list()).map((a) => a.subject)).toEqual(['ml']);
  expect((await store.snoozes.active(new Date('2026-11-07T00:00:00Z'))).map((s) => s.groupKey)).toEqual(['budget:ml']);
  const totals = await store.spend.totals({ period: { start: '2026-11-01', end: '2026-12-01' } }, 'team');
  expect(totals.map((t) => [t.key, t.currency, t.effective])).toEqual([
    ['ml', 'USD', 9.3],
    ['ml', 'EUR', 3.1],
    ['vision', 'USD', 0.7],
  ]);
}

describe('a SQLite file at the last user_version before the one migration list', () => {
  it('opens with every row kept, its baseline recorded by key', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'burnrate-upgrade-')), 'burnrate.db');
    const raw = new Database(path);
    raw.exec(fixture('sqlite-user-version-21.sql'));
    const count = (db: Database.Database) =>
      asMerged(
        db
          .prepare<[], string>(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'burnrate_migrations'",
          )
          .pluck()
          .all()
          .map((t): [string, number] => [t, (db.prepare(`SELECT count(*) AS n FROM "${t}"`).get() as { n: number }).n]),
      );
    const before = count(raw);
    expect(before.find(([t]) => t === 'check_findings')?.[1]).toBeGreaterThan(0);
    raw.close();

    const store = openStore(path);
    await store.ready();
    await expectFixtureRows(store);
    await store.close();

    const after = new Database(path, { readonly: true });
    expectRowsKept(count(after), before);
    expect(after.pragma('user_version', { simple: true })).toBe(21);
    expect(after.prepare<[], string>('SELECT key FROM burnrate_migrations ORDER BY key').pluck().all()).toEqual(
      MIGRATIONS.map((m) => m.key),
    );
    after.close();
  });
});

describePostgres('a Postgres database at the baseline before the one migration list', () => {
  it('opens with every row kept and nothing applied again', async () => {
    const url = await freshDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const counts = async () => {
      const { rows } = await client.query<{ name: string }>(
        "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'burnrate_migrations' ORDER BY 1",
      );
      return asMerged(
        await Promise.all(
          rows.map(
            async (r): Promise<[string, number]> => [
              r.name,
              (await client.query(`SELECT count(*)::int AS n FROM public."${r.name}"`)).rows[0].n,
            ],
          ),
        ),
      );
    };
    try {
      await client.query(fixture('postgres-baseline.sql'));
      const before = await counts();

      const store = openPostgresStore(url, { poolSize: 2 });
      await store.ready();
      await expectFixtureRows(store);
      await store.close();

      expectRowsKept(await counts(), before);
      const { rows } = await client.query<{ key: string }>('SELECT key FROM public.burnrate_migrations ORDER BY key');
      expect(rows.map((r) => r.key)).toEqual(MIGRATIONS.map((m) => m.key));
    } finally {
      await client.end();
    }
  });
});
