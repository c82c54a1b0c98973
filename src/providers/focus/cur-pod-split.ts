import type { DuckDBConnection } from '@duckdb/node-api';
import type { KubeSplitCost } from '../../domain/kube-usage.js';
import { runForFile } from './duckdb-errors.js';
import type { FocusFileLayout } from './focus-columns.js';
import { focusReaderSql, sqlIdentifier } from './focus-sql.js';

// AWS split cost allocation data: with it turned on, a CUR (2.0 or legacy) carries, beside each
// EKS node's instance lines, lines for every pod on it each hour (CPU, memory and, since accelerators
// are covered, GPU: weighted 9:1 against CPU and memory on a GPU instance), whose resource id is the
// pod's ARN, `arn:aws:eks:<region>:<account>:pod/<cluster>/<namespace>/<pod>/<uid>`, and whose
// `split_line_item_split_cost` is the pod's share of the amortised cost of its instance
// (`split_line_item_parent_resource_id`). The instance's own lines keep its whole cost: these are a
// split of it, read beside the FOCUS rows and never added to spend.
//
// Which columns, after AWS's Data Exports guide ("Split line item columns", "Example of split cost
// allocation data"): an instance-hour's amortised cost is its pods' `split_cost` plus their
// `split_line_item_unused_cost`, the capacity no pod used spread over the pods in proportion to their use.
//   - `split_line_item_split_cost` is read: it is in the basis of the instance's own lines as the
//     CUR mapping reads them (cur-to-focus.ts: unblended cost, Savings Plan and reservation effective
//     cost; never the `net_` columns, and CUR 2.0 keeps discounts in its `discount` column, not in
//     the cost), so a pod's amount is a part of the node's bill line, not of another figure.
//   - `split_line_item_net_split_cost` (after discounts) is not: against a node line before
//     discounts it would leave the pods' discount on the node as if it were idle capacity.
//   - `split_line_item_unused_cost` is not: the node's idle capacity stays the node's, as
//     (unrequested GPUs), which burnrate reckons itself as the node's bill less its pods' split
//     (node-day-shares.ts); adding it to the pods would count it twice.

/** The CUR columns the pod split reads, in each spelling (CUR 2.0, legacy). */
export const SPLIT_COLUMNS = {
  parent: ['split_line_item_parent_resource_id', 'splitLineItem/ParentResourceId'],
  splitCost: ['split_line_item_split_cost', 'splitLineItem/SplitCost'],
  resource: ['line_item_resource_id', 'lineItem/ResourceId'],
  start: ['line_item_usage_start_date', 'lineItem/UsageStartDate'],
  billingStart: ['bill_billing_period_start_date', 'bill/BillingPeriodStartDate'],
  currency: ['line_item_currency_code', 'lineItem/CurrencyCode'],
} as const;

/** An EKS pod's ARN: cluster, namespace and pod name are its path's first three parts. */
export const POD_ARN = '^arn:aws[a-z-]*:eks:[^:]*:[^:]*:pod/([^/]+)/([^/]+)/([^/]+)(/|$)';

/**
 * The SELECT of a CUR file's pod split, a pod's amounts of a day on a node added up; null when the
 * file has no split cost allocation columns (not turned on for the export).
 */
export function curPodSplitSql(file: string, columns: readonly string[]): string | null {
  const has = new Set(columns);
  const col = (key: keyof typeof SPLIT_COLUMNS): string | null => {
    const name = SPLIT_COLUMNS[key].find((n) => has.has(n));
    return name ? sqlIdentifier(name) : null;
  };
  const [parent, splitCost, resource, start, billingStart, currency] = [
    col('parent'),
    col('splitCost'),
    col('resource'),
    col('start'),
    col('billingStart'),
    col('currency'),
  ];
  if (!parent || !splitCost || !resource || !start || !billingStart || !currency) return null;
  const text = (c: string) => `CAST(${c} AS VARCHAR)`;
  const amount = (c: string) => `TRY_CAST(${c} AS DECIMAL(38, 10))`;
  // Before discounts, as the instance's own lines are read (see above).
  const cost = `coalesce(${amount(splitCost)}, 0)`;
  const arn = (group: number) => `regexp_extract(${text(resource)}, '${POD_ARN}', ${group})`;
  return `
    SELECT substr(${text(billingStart)}, 1, 7) AS "billingPeriod", substr(${text(start)}, 1, 10) AS day,
           ${text(parent)} AS "nodeInstanceId", ${arn(1)} AS cluster, ${arn(2)} AS namespace, ${arn(3)} AS pod,
           ${text(currency)} AS currency,
           CAST(sum(${cost}) AS DOUBLE) AS "splitCost"
    FROM ${focusReaderSql(file)}
    WHERE ${parent} IS NOT NULL AND regexp_matches(${text(resource)}, '${POD_ARN}')
    GROUP BY ALL
    ORDER BY day, "nodeInstanceId", cluster, namespace, pod, currency`;
}

/** The pod split of every file read that has one, each row pointing at its file's part (the layout's index). */
export async function readPodSplits(connection: DuckDBConnection, layouts: readonly FocusFileLayout[]): Promise<KubeSplitCost[]> {
  const rows: KubeSplitCost[] = [];
  for (const [part, layout] of layouts.entries()) {
    if (!layout.podSplit) continue;
    for (const r of await runForFile(connection, layout.podSplit, layout.file))
      rows.push({
        day: String(r['day']),
        nodeInstanceId: String(r['nodeInstanceId']),
        cluster: String(r['cluster']),
        namespace: String(r['namespace']),
        pod: String(r['pod']),
        billingPeriod: String(r['billingPeriod']),
        currency: String(r['currency']),
        splitCost: Number(r['splitCost']),
        part,
      });
  }
  return rows;
}
