import { postgresMoneySum } from '../dialect/money-sum.js';
// spend_team_days, as in spend-team-days.ts: rebuilt from spend_daily over the days an import (or a
// Kubernetes sample) touched, in its transaction. The pure span helpers are shared from there.

import { addDays } from '../../domain/period.js';
import type { SpendScope } from '../../domain/spend.js';
import type { DaySpan } from '../spend-team-days.js';
import type { PgSession } from './pg-session.js';
import { lockSpendWrites } from './pg-spend-lock.js';

/** The days the rows a scope replaces cover, read before they are deleted; null when there are none. */
export async function spanOfScope(tx: PgSession, scope: SpendScope): Promise<DaySpan | null> {
  if (scope.days) return scope.days.start < scope.days.end ? { first: scope.days.start, last: addDays(scope.days.end, -1) } : null;
  const accounts = scope.billingAccounts;
  const found = await tx.one<{ first: string | null; last: string | null }>(
    `SELECT min(day) AS first, max(day) AS last FROM spend_daily
     WHERE source = $1 AND billing_period = ANY($2::text[]) ${accounts ? 'AND billing_account = ANY($3::text[])' : ''}`,
    [scope.source, scope.billingPeriods, ...(accounts ? [accounts] : [])],
  );
  return found?.first && found.last ? { first: found.first, last: found.last } : null;
}

/** Sums spend_daily into spend_team_days again over a span. Runs inside the caller's transaction. */
export async function rebuildTeamDays(tx: PgSession, span: DaySpan): Promise<void> {
  await lockSpendWrites(tx);
  await tx.run('DELETE FROM spend_team_days WHERE day >= $1 AND day <= $2', [span.first, span.last]);
  await tx.run(
    `INSERT INTO spend_team_days (day, team, currency, kind, billed, effective)
     SELECT day, team, currency, cost_kind, ${postgresMoneySum('billed')}, ${postgresMoneySum('effective')} FROM spend_daily
     WHERE day >= $1 AND day <= $2 GROUP BY day, team, currency, cost_kind`,
    [span.first, span.last],
  );
}
