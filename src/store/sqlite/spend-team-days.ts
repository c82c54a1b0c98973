import { sqliteMoneySum } from '../dialect/money-sum.js';
import type Database from 'better-sqlite3';
import { addDays } from '../../domain/period.js';
import type { SpendScope } from '../../domain/spend.js';
import type { DaySpan } from '../spend-team-days.js';

/** The days the rows a scope replaces cover, read before they are deleted; null when there are none. */
export function spanOfScope(db: Database.Database, scope: SpendScope): DaySpan | null {
  if (scope.days) return scope.days.start < scope.days.end ? { first: scope.days.start, last: addDays(scope.days.end, -1) } : null;
  const accounts = scope.billingAccounts;
  const span = db.prepare<unknown[], { first: string | null; last: string | null }>(
    `SELECT min(day) AS first, max(day) AS last FROM spend_daily
     WHERE source = ? AND billing_period IN (SELECT value FROM json_each(?))
       ${accounts ? 'AND billing_account IN (SELECT value FROM json_each(?))' : ''}`,
  );
  const found = span.get(scope.source, JSON.stringify(scope.billingPeriods), ...(accounts ? [JSON.stringify(accounts)] : []));
  return found?.first && found.last ? { first: found.first, last: found.last } : null;
}

/** Sums spend_daily into spend_team_days again over a span. Runs inside the caller's transaction. */
export function rebuildTeamDays(db: Database.Database, span: DaySpan): void {
  db.prepare('DELETE FROM spend_team_days WHERE day >= ? AND day <= ?').run(span.first, span.last);
  db.prepare(
    `INSERT INTO spend_team_days (day, team, currency, kind, billed, effective)
     SELECT day, team, currency, cost_kind, ${sqliteMoneySum('billed')}, ${sqliteMoneySum('effective')} FROM spend_daily
     WHERE day >= ? AND day <= ? GROUP BY day, team, currency, cost_kind`,
  ).run(span.first, span.last);
}
