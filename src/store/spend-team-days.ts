// spend_team_days holds each team's spend per day, summed from spend_daily: what budget checks,
// `/burnrate budget` and the App Home read, a few hundred rows instead of every cost line of two
// months. Every import rebuilds it over the days it touched, in the import's own transaction, so
// it never disagrees with spend_daily.

import { addDays } from '../domain/period.js';
import type { SpendRow, SpendScope } from '../domain/spend.js';
import type { Dialect, Session } from './session.js';

/** A span of days, both ends included (YYYY-MM-DD). */
export interface DaySpan {
  first: string;
  last: string;
}

/** The days some rows fall on; null for none. */
export function spanOfRows(rows: readonly SpendRow[]): DaySpan | null {
  return spanOfDays(rows.map((r) => r.day));
}

/** From the first to the last of some days; null for none. */
export function spanOfDays(days: readonly string[]): DaySpan | null {
  let span: DaySpan | null = null;
  for (const day of days) span = widen(span, { first: day, last: day });
  return span;
}

export function widen(a: DaySpan | null, b: DaySpan | null): DaySpan | null {
  if (!a || !b) return a ?? b;
  return { first: a.first < b.first ? a.first : b.first, last: a.last > b.last ? a.last : b.last };
}

/** The days the rows a scope replaces cover, read before they are deleted; null when there are none. */
export async function spanOfScope(tx: Session, scope: SpendScope): Promise<DaySpan | null> {
  if (scope.days) return scope.days.start < scope.days.end ? { first: scope.days.start, last: addDays(scope.days.end, -1) } : null;
  const { where, params } = periodScope(tx.dialect, scope);
  const found = await tx.one<{ first: string | null; last: string | null }>(
    `SELECT min(day) AS first, max(day) AS last FROM spend_daily WHERE ${where}`,
    params,
  );
  return found?.first && found.last ? { first: found.first, last: found.last } : null;
}

/** The spend_daily rows of a scope's whole billing periods (of its accounts, when it names some): a condition and its parameters. */
export function periodScope(d: Dialect, scope: SpendScope): { where: string; params: unknown[] } {
  const accounts = scope.billingAccounts;
  return {
    where: `source = ? AND ${d.inList('billing_period')} ${accounts ? `AND ${d.inList('billing_account')}` : ''}`,
    params: [scope.source, d.list(scope.billingPeriods), ...(accounts ? [d.list(accounts)] : [])],
  };
}

/** Sums spend_daily into spend_team_days again over a span. Runs inside the caller's transaction, under the spend lock. */
export async function rebuildTeamDays(tx: Session, span: DaySpan): Promise<void> {
  await tx.lock(SPEND_LOCK);
  await tx.run('DELETE FROM spend_team_days WHERE day >= ? AND day <= ?', [span.first, span.last]);
  await tx.run(sumTeamDays(tx.dialect, 'WHERE day >= ? AND day <= ?'), [span.first, span.last]);
}

/** Sums the days of spend_daily `where` picks into spend_team_days (an upgraded file's: all of them). */
export const sumTeamDays = (d: Dialect, where = ''): string =>
  `INSERT INTO spend_team_days (day, team, currency, kind, billed, effective)
   SELECT day, team, currency, cost_kind, ${d.money('billed')}, ${d.money('effective')} FROM spend_daily
   ${where} GROUP BY day, team, currency, cost_kind`;

/**
 * One writer at a time of spend_daily and the rows derived from it (team days, Kubernetes moves):
 * an import reads the spend it replaces, deletes, inserts and rebuilds over the days it touched,
 * and a second replica's import (or a Kubernetes sample) doing the same at once would interleave
 * with it. Held until the transaction ends; taking it again in the same transaction is free.
 */
export const SPEND_LOCK = 'burnrate import';
