// The moves of Kubernetes node cost to workloads' teams (kube-attribution.ts says what they are and
// why): the same statement as SQLite's, so a node-day still adds up to its bill in both stores.

import { KUBE_ATTRIBUTION_SOURCE, movesSql } from '../kube-attribution.js';
import type { DaySpan } from '../spend-team-days.js';
import type { PgSession } from './pg-session.js';
import { lockSpendWrites } from './pg-spend-lock.js';

const MOVES = movesSql({ first: '$1', last: '$2', greater: 'GREATEST', lineId: 'ctid' });

/** Rebuilds the moves of Kubernetes node cost to workloads' teams over a span. Runs inside the caller's transaction. */
export async function attributeKubeCost(tx: PgSession, span: DaySpan): Promise<void> {
  await lockSpendWrites(tx);
  await tx.run(`DELETE FROM spend_daily WHERE source = '${KUBE_ATTRIBUTION_SOURCE}' AND day >= $1 AND day <= $2`, [span.first, span.last]);
  // Most imports have no cluster behind them: one look at the usage table's key, not a pass over the bill.
  const sampled = await tx.one('SELECT 1 FROM kube_gpu_usage WHERE day >= $1 AND day <= $2 AND node_instance_id IS NOT NULL LIMIT 1', [
    span.first,
    span.last,
  ]);
  if (sampled) await tx.run(MOVES, [span.first, span.last]);
}
