import type { KubeSplitCost } from '../../../domain/kube-usage.js';
import { POD_ARN, SPLIT_COLUMNS } from '../../focus/cur-pod-split.js';
import { sqlIdentifier } from '../../focus/focus-sql.js';
import { periodLiteral, timestampLiteral, type ExportQuery } from './export-query-sql.js';

/** One result row of podSplitSql, every value as Athena returns it: text, or null. */
type PodSplitResultRow = Record<
  'billing_period' | 'day' | 'node' | 'cluster' | 'namespace' | 'pod' | 'currency' | 'split_cost',
  string | null
>;

/**
 * The bill's pod split (AWS split cost allocation data, src/providers/focus/cur-pod-split.ts) of a
 * CUR 2.0 table, run in Athena over the same billing_period partitions and days as the spend
 * query: a pod's amounts of a day on a node added up as exact decimals, its split cost before
 * discounts as the instance's own lines are read, as a CUR file's import reads them (the columns and
 * why: cur-pod-split.ts). The table must carry the split cost allocation columns (the export made
 * with "Include split cost allocation data").
 */
export function podSplitSql(query: Pick<ExportQuery, 'database' | 'table' | 'billingPeriods' | 'before'>): string {
  const c = (key: keyof typeof SPLIT_COLUMNS) => sqlIdentifier(SPLIT_COLUMNS[key][0]);
  const text = (key: keyof typeof SPLIT_COLUMNS) => `CAST(${c(key)} AS VARCHAR)`;
  const amount = (key: keyof typeof SPLIT_COLUMNS) => `TRY_CAST(${c(key)} AS DECIMAL(38, 10))`;
  // Trino's regexp_extract gives NULL where the pattern does not match.
  const arn = (group: number) => `regexp_extract(${text('resource')}, '${POD_ARN}', ${group})`;
  return `SELECT billing_period, day, node, cluster, namespace, pod, currency, CAST(sum(cost) AS VARCHAR) AS split_cost
FROM (
  SELECT substr(CAST(CAST(${c('billingStart')} AS DATE) AS VARCHAR), 1, 7) AS billing_period,
    CAST(CAST(${c('start')} AS DATE) AS VARCHAR) AS day,
    ${text('parent')} AS node, ${arn(1)} AS cluster, ${arn(2)} AS namespace, ${arn(3)} AS pod,
    ${text('currency')} AS currency,
    coalesce(${amount('splitCost')}, 0) AS cost
  FROM ${sqlIdentifier(query.database)}.${sqlIdentifier(query.table)}
  WHERE ${sqlIdentifier('billing_period')} IN (${query.billingPeriods.map(periodLiteral).join(', ')})
    AND ${c('start')} < ${timestampLiteral(query.before)}
    AND nullif(${text('parent')}, '') IS NOT NULL
) AS pod_lines
WHERE coalesce(pod, '') <> ''
GROUP BY billing_period, day, node, cluster, namespace, pod, currency`;
}

/** Athena's text rows as the store keeps the bill's pod split. */
export function podSplitsOf(rows: readonly Record<string, string | null>[]): KubeSplitCost[] {
  return (rows as PodSplitResultRow[]).map((r) => ({
    day: r.day ?? '',
    nodeInstanceId: r.node ?? '',
    cluster: r.cluster ?? '',
    namespace: r.namespace ?? '',
    pod: r.pod ?? '',
    billingPeriod: r.billing_period ?? '',
    currency: r.currency ?? '',
    splitCost: Number(r.split_cost ?? 0),
  }));
}
