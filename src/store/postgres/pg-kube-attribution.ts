import { KUBE_ATTRIBUTION_SOURCE, kubeMoves } from '../kube-attribution.js';
import type { DaySpan } from '../spend-team-days.js';
import { lockSpendDays } from './pg-spend-team-days.js';
import type { PgSession } from './pg-session.js';

/**
 * Rebuilds the moves of Kubernetes node cost to workloads' teams over a span (kube-attribution.ts),
 * inside the caller's transaction and under the lock of spend's derived days: a usage sample and
 * an import on two replicas would otherwise each delete the other's moves unseen and add theirs twice.
 */
export async function attributeKubeCost(tx: PgSession, span: DaySpan): Promise<void> {
  await lockSpendDays(tx);
  await tx.run(`DELETE FROM spend_daily WHERE source = '${KUBE_ATTRIBUTION_SOURCE}' AND day >= $1 AND day <= $2`, [span.first, span.last]);
  // Most imports have no cluster behind them: one look at the usage table's key, not a pass over the bill.
  const sampled = await tx.one('SELECT 1 FROM kube_gpu_usage WHERE day >= $1 AND day <= $2 AND node_instance_id IS NOT NULL LIMIT 1', [
    span.first,
    span.last,
  ]);
  if (sampled) await tx.run(kubeMoves('ctid'), [span.first, span.last]);
}
