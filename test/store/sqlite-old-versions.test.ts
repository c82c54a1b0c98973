import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/sqlite/open-sqlite-store.js';
import { MIGRATIONS as OLD_STEPS } from '../fixtures/store/sqlite-steps.js';

// A SQLite file left at any user_version by the old positional steps opens into the schema a new
// file gets, its rows kept: the schema is written once, and old files are brought to it.

/** Tables and indexes as SQLite reads them: columns (name, affinity, not null, default, key) and indexed columns. */
function shape(path: string): unknown {
  const db = new Database(path, { readonly: true });
  const affinity = (type: string) =>
    /INT/i.test(type) ? 'integer' : /CHAR|CLOB|TEXT/i.test(type) ? 'text' : /REAL|FLOA|DOUB/i.test(type) ? 'real' : type;
  const names = (type: string) =>
    db
      .prepare<[string], string>("SELECT name FROM sqlite_master WHERE type = ? AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck()
      .all(type);
  const tables = names('table').map((t) => ({
    table: t,
    columns: (db.pragma(`table_info('${t}')`) as { name: string; type: string; notnull: number; dflt_value: unknown; pk: number }[])
      .map((c) => [c.name, affinity(c.type), c.notnull, c.dflt_value, c.pk])
      .sort(),
    indexes: (db.pragma(`index_list('${t}')`) as { name: string; unique: number; partial: number }[])
      .map((i) => [
        i.name.startsWith('sqlite_') ? 'key' : i.name,
        i.unique,
        i.partial,
        (db.pragma(`index_info('${i.name}')`) as { name: string }[]).map((c) => c.name),
      ])
      .sort(),
  }));
  db.close();
  return tables;
}

const newFile = () => join(mkdtempSync(join(tmpdir(), 'burnrate-old-')), 'burnrate.db');

describe('a SQLite file written by the old steps', () => {
  const fresh = newFile();
  openStore(fresh).close();

  it.each(OLD_STEPS.map((_, version) => version + 1))('at user_version %i opens into the schema of a new file', async (version) => {
    const path = newFile();
    const db = new Database(path);
    OLD_STEPS.slice(0, version).forEach((step) => db.exec(step));
    db.pragma(`user_version = ${version}`);
    db.prepare("INSERT INTO outbox (dedupe_key, target, message, next_attempt_at, created_at) VALUES ('k', 'terminal:ml', '{}', ?, ?)").run(
      '2026-11-01T00:00:00.000Z',
      '2026-11-01T00:00:00.000Z',
    );
    db.close();

    const store = openStore(path);
    // The outbox row is kept, and can be leased (status 'sending', which the first steps' outbox refused).
    const claimed = await store.outbox.claimNext('me', new Date('2026-11-02T00:00:00Z'), 60_000, ['terminal']);
    expect(claimed?.dedupeKey).toBe('k');
    await store.close();
    expect(shape(path)).toEqual(shape(fresh));
  });
});
