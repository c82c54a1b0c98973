import type { KubeSplitCost } from '../domain/kube-usage.js';
import type { SpendScope } from '../domain/spend.js';
import type { Session } from './session.js';
import { partKey } from './spend-export-parts.js';

/**
 * Replaces what an import source's bill split over Kubernetes pods (AWS split cost allocation data)
 * with `rows`: in the scope's billing periods, only the rows of the parts imported again when the
 * import replaces parts (`partsOnly`, as spend_daily's rows are), else every row of those periods.
 * A pod's amounts of one day, part and currency are added up. Runs inside the caller's transaction.
 */
export async function writePodSplits(tx: Session, scope: SpendScope, rows: readonly KubeSplitCost[], partsOnly: boolean): Promise<void> {
  const d = tx.dialect;
  const parts = (scope.parts ?? []).map((p) => partKey(p.exportId, p.name));
  await tx.run(
    `DELETE FROM kube_split_costs WHERE source = ? AND ${d.inList('billing_period')} ${partsOnly ? `AND (part = '' OR ${d.inList('part')})` : ''}`,
    [scope.source, d.list(scope.billingPeriods), ...(partsOnly ? [d.list(parts)] : [])],
  );
  for (const r of rows)
    await tx.run(
      `INSERT INTO kube_split_costs (source, billing_period, part, day, node_instance_id, cluster, namespace, pod, currency, split_cost)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (source, billing_period, part, day, node_instance_id, cluster, namespace, pod, currency) DO UPDATE SET
         split_cost = kube_split_costs.split_cost + excluded.split_cost`,
      [
        scope.source,
        r.billingPeriod,
        r.part === undefined ? '' : (parts[r.part] ?? ''),
        r.day,
        r.nodeInstanceId,
        r.cluster,
        r.namespace,
        r.pod,
        r.currency,
        r.splitCost,
      ],
    );
}
