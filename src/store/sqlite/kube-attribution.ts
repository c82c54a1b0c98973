import type Database from 'better-sqlite3';
import type { DaySpan } from '../spend-team-days.js';
import { KUBE_ATTRIBUTION_SOURCE, movesSql } from '../kube-attribution.js';

const MOVES = movesSql({ first: '@first', last: '@last', greater: 'max', lineId: 'rowid' });

/** Rebuilds the moves of Kubernetes node cost to workloads' teams over a span. Runs inside the caller's transaction. */
export function attributeKubeCost(db: Database.Database, span: DaySpan): void {
  db.prepare(`DELETE FROM spend_daily WHERE source = '${KUBE_ATTRIBUTION_SOURCE}' AND day >= ? AND day <= ?`).run(span.first, span.last);
  // Most imports have no cluster behind them: one look at the usage table's key, not a pass over the bill.
  const sampled = db
    .prepare('SELECT 1 FROM kube_gpu_usage WHERE day >= ? AND day <= ? AND node_instance_id IS NOT NULL LIMIT 1')
    .get(span.first, span.last);
  if (sampled) db.prepare(MOVES).run(span);
}
