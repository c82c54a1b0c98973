// The floor of `burnrate spend --by team`: one process that opens the same SQLite file with
// better-sqlite3, sums this month's spend by team and prints it. What the CLI adds on top of this
// (configuration, the store's modules, the report and its text) is what the benchmark weighs.
import Database from 'better-sqlite3';

const [file] = process.argv.slice(2);
if (!file) throw new Error('usage: spend-direct-query <sqlite file>');
const now = new Date();
const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString().slice(0, 10);
const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
const db = new Database(file, { readonly: true });
const rows = db
  .prepare(
    `SELECT team, currency, SUM(billed) AS billed, SUM(effective) AS effective FROM spend_daily
     WHERE day >= ? AND day < ? GROUP BY team, currency ORDER BY effective DESC, team`,
  )
  .all(start, end) as { team: string; currency: string; billed: number; effective: number }[];
for (const row of rows) console.log(`${row.team.padEnd(20)} ${row.effective.toFixed(2).padStart(14)} ${row.currency}`);
db.close();
