import type { DaySpan } from '../spend-team-days.js';
import { lockFor } from './pg-db.js';
import type { PgSession } from './pg-session.js';

/**
 * Serialises the rebuilds of what is derived from spend_daily day by day (the Kubernetes moves,
 * spend_team_days) until the transaction ends: each rebuild deletes a span's rows and sums them
 * again, which two replicas doing at once under READ COMMITTED would double. The statements after
 * it see every rebuild committed before.
 */
export async function lockSpendDays(tx: PgSession): Promise<void> {
  await lockFor(tx, 'spend derived days');
}

/** Sums spend_daily into spend_team_days again over a span (spend-team-days.ts). Runs inside the caller's transaction. */
export async function rebuildTeamDays(tx: PgSession, span: DaySpan): Promise<void> {
  await lockSpendDays(tx);
  await tx.run('DELETE FROM spend_team_days WHERE day >= $1 AND day <= $2', [span.first, span.last]);
  await tx.run(
    `INSERT INTO spend_team_days (day, team, currency, kind, billed, effective)
     SELECT day, team, currency, cost_kind, sum(billed), sum(effective) FROM spend_daily
     WHERE day >= $1 AND day <= $2 GROUP BY day, team, currency, cost_kind`,
    [span.first, span.last],
  );
}
