// A Kubernetes GPU node is one line on the bill (its instance), but its GPUs serve the pods of
// several teams. The usage samples (kube_gpu_usage) say which workload held which share of the
// node's GPU-hours each day; these rows move that share of every bill line of the node to the
// workload's team, as the workload (`k8s:<cluster>/<namespace>/<Kind>/<name>`). Each move is a pair:
// the share to the workload's team, the same amount off the node's line, so a node-day's rows still
// add up to what the bill says, and every reader of spend_daily (budgets, reviews, showback, waste)
// sees Kubernetes spend by team without knowing of Kubernetes.
//
// A workload of the node's own team gets its line too (the team's total does not move): reviews and
// the waste diagnosis see each workload's cost as the bill priced it. What stays on the node's
// line: GPUs no pod requested, time the samples did not see (the bill counts more hours than they
// did), and workloads whose namespace has no team. A node-day the bill does not cover (yet) moves nothing: budgets follow the bill.
// The rows are rebuilt over a span of days, in the caller's transaction, whenever the bill (an
// import) or the usage (a sample) of those days changes.

import { SPEND_AMOUNTS } from './schema.js';
import type { Dialect, Session } from './session.js';
import { SPEND_LOCK, type DaySpan } from './spend-team-days.js';

/** The source of the moves in spend_daily: never imported, never a source of freshness. */
export const KUBE_ATTRIBUTION_SOURCE = 'kubernetes';

/** Every spend_daily column a move copies from the node's bill line as it is. */
const COPIED = `billing_period billing_account day provider sub_account service service_category charge_category pricing_category
  currency experiment run_id sweep charge_frequency charge_class commitment_discount_id commitment_discount_type
  commitment_discount_category commitment_discount_status publisher invoice_issuer region cost_kind pricing_currency host_provider
  extensions commitment_end`.split(/\s+/);

const columns = ['source', 'team', 'owner_tag', 'resource_id', 'resource_name', ...COPIED, ...SPEND_AMOUNTS].join(', ');
const copied = COPIED.map((c) => `r.${c}`).join(', ');
const scaled = (factor: string) => SPEND_AMOUNTS.map((c) => `r.${c} * ${factor}`).join(', ');

/**
 * The moves of the node costs of a span, in one INSERT … SELECT; its parameters are the span's
 * first and last day, three times. A spend_daily row is named by the dialect's row identity (the
 * table has no key; stable within the statement).
 */
const movesSql = ({ greatest: greater, rowId: lineId }: Dialect, first = '?', last = '?'): string => `
WITH seen AS (
  SELECT day, node_instance_id, sum(node_hours) AS hours FROM kube_gpu_usage
  WHERE node_instance_id IS NOT NULL AND day >= ${first} AND day <= ${last}
  GROUP BY day, node_instance_id
),
billed AS (
  SELECT day, resource_id, sum(usage_hours) AS hours FROM spend_daily
  WHERE source <> '${KUBE_ATTRIBUTION_SOURCE}' AND day >= ${first} AND day <= ${last}
    AND resource_id IN (SELECT node_instance_id FROM seen)
  GROUP BY day, resource_id
),
shares AS (
  SELECT u.day, u.node_instance_id, u.cluster, u.workload, u.team,
         u.node_hours / ${greater}(s.hours, coalesce(b.hours, 0)) AS share
  FROM kube_gpu_usage u
  JOIN seen s ON s.day = u.day AND s.node_instance_id = u.node_instance_id
  JOIN billed b ON b.day = u.day AND b.resource_id = u.node_instance_id
  WHERE u.workload <> '' AND u.team IS NOT NULL
),
moves AS (
  SELECT r.${lineId} AS line, sh.team, sh.cluster, sh.workload, sh.share
  FROM spend_daily r JOIN shares sh ON sh.day = r.day AND sh.node_instance_id = r.resource_id
  WHERE r.source <> '${KUBE_ATTRIBUTION_SOURCE}' AND r.day >= ${first} AND r.day <= ${last}
)
INSERT INTO spend_daily (${columns})
SELECT '${KUBE_ATTRIBUTION_SOURCE}', m.team, m.team, 'k8s:' || m.workload, substr(m.workload, length(m.cluster) + 2), ${copied}, ${scaled('m.share')}
FROM moves m JOIN spend_daily r ON r.${lineId} = m.line
UNION ALL
SELECT '${KUBE_ATTRIBUTION_SOURCE}', r.team, r.owner_tag, r.resource_id, r.resource_name, ${copied}, ${scaled('-t.share')}
FROM (SELECT line, sum(share) AS share FROM moves GROUP BY line) t JOIN spend_daily r ON r.${lineId} = t.line`;

/** Rebuilds the moves of Kubernetes node cost to workloads' teams over a span. Runs inside the caller's transaction. */
export async function attributeKubeCost(tx: Session, span: DaySpan): Promise<void> {
  await tx.lock(SPEND_LOCK);
  await tx.run(`DELETE FROM spend_daily WHERE source = '${KUBE_ATTRIBUTION_SOURCE}' AND day >= ? AND day <= ?`, [span.first, span.last]);
  // Most imports have no cluster behind them: one look at the usage table's key, not a pass over the bill.
  const sampled = await tx.one('SELECT 1 FROM kube_gpu_usage WHERE day >= ? AND day <= ? AND node_instance_id IS NOT NULL LIMIT 1', [
    span.first,
    span.last,
  ]);
  if (sampled) await tx.run(movesSql(tx.dialect), [span.first, span.last, span.first, span.last, span.first, span.last]);
}
