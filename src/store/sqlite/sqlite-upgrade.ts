import Database from 'better-sqlite3';
import { sumTeamDays } from '../spend-team-days.js';
import { SQLITE } from './sqlite-dialect.js';

/**
 * Before the migration list was one, a SQLite file was migrated by positional steps and PRAGMA
 * user_version counted them; the baseline (schema.ts) is where the twenty-first left it. A file is
 * stamped with this version once it has the baseline, so an older burnrate refuses it.
 */
export const BASELINE_USER_VERSION = 21;

/**
 * Brings a file from any earlier user_version (0: a new file) to the baseline: the tables and
 * indexes it lacks are created and the columns it lacks added, as the baseline writes them, after
 * the few changes of the old steps that adding cannot make. Runs inside the caller's transaction.
 */
export function bringToBaseline(db: Database.Database, baseline: string): void {
  const reference = new Database(':memory:');
  try {
    reference.exec(baseline);
    reshapeOldTables(db);
    const existing = schemaOf(db, 'table');
    for (const [table, sql] of schemaOf(reference, 'table')) {
      if (!existing.has(table)) {
        db.exec(sql);
        continue;
      }
      const columns = columnsOf(db, table);
      for (const [column, definition] of columnDefinitions(sql))
        if (!columns.includes(column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${definition}`);
    }
    // The rollups the reshaping dropped (or a step never made) are summed from the bill already there.
    if (!existing.has('spend_team_days')) db.exec(sumTeamDays(SQLITE));
    moveRows(db, 'outbox_unleased', 'outbox');
    const indexes = schemaOf(db, 'index');
    for (const [index, sql] of schemaOf(reference, 'index')) if (!indexes.has(index)) db.exec(sql);
  } finally {
    reference.close();
  }
}

/** What the old steps changed beyond adding tables, columns and indexes, done to a file that stopped before them. */
function reshapeOldTables(db: Database.Database): void {
  // Step 14 let a delivery lease an item (status 'sending'), which an older outbox's CHECK refuses
  // and no added column widens: its rows move to the baseline's outbox (moveRows).
  const outbox = columnsOf(db, 'outbox');
  if (outbox.length > 0 && !outbox.includes('lease_owner')) {
    db.exec('ALTER TABLE outbox RENAME TO outbox_unleased');
    for (const index of ['outbox_due', 'outbox_parent']) db.exec(`DROP INDEX IF EXISTS ${index}`);
  }
  // Step 17 kept currencies and kinds of cost apart in the team days: an older rollup is summed again.
  const teamDays = columnsOf(db, 'spend_team_days');
  if (teamDays.length > 0 && !teamDays.includes('currency')) db.exec('DROP TABLE spend_team_days');
  // Step 18 dropped an index that only slowed imports down.
  db.exec('DROP INDEX IF EXISTS spend_daily_currency_day');
}

/** Copies the rows of `from` into `to`, the columns they share, and drops `from` (when there is one). */
function moveRows(db: Database.Database, from: string, to: string): void {
  const columns = columnsOf(db, from);
  if (columns.length === 0) return;
  db.exec(`INSERT INTO ${to} (${columns.join(', ')}) SELECT ${columns.join(', ')} FROM ${from}; DROP TABLE ${from}`);
}

/** A table's column names (none when there is no such table). */
const columnsOf = (db: Database.Database, table: string): string[] =>
  db.prepare<[], string>(`SELECT name FROM pragma_table_info('${table}')`).pluck().all();

/** A schema's tables or indexes (those SQLite makes for keys aside), by name, with their CREATE statements. */
function schemaOf(db: Database.Database, type: 'table' | 'index'): Map<string, string> {
  const rows = db
    .prepare<
      [string],
      { name: string; sql: string }
    >("SELECT name, sql FROM sqlite_master WHERE type = ? AND sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid")
    .all(type);
  return new Map(rows.map((r) => [r.name, r.sql]));
}

/** Each column of a CREATE TABLE statement with its definition, as ALTER TABLE ADD COLUMN takes it. */
function columnDefinitions(createTable: string): Map<string, string> {
  const text = createTable.replace(/--[^\n]*/g, '');
  const body = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  [...body].forEach((char, i) => {
    if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === ',' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  });
  parts.push(body.slice(start));
  const columns = parts.map((p) => p.trim()).filter((p) => !/^(PRIMARY|UNIQUE|FOREIGN|CHECK|CONSTRAINT)\b/i.test(p));
  return new Map(columns.map((definition) => [definition.split(/\s/)[0]!, definition]));
}
