/**
 * The query over the Cloud Billing export: one row per day, invoice month, service, project,
 * owner and currency (and resource, for the detailed export). Reading only the partitions of the
 * window keeps the scanned bytes, and so the query's own cost, to those days.
 *
 * The owner is the first ownership key found among the cost's resource labels, then among its
 * project's labels (keys compared lower-case: Google's label keys are lower-case). `net` nets the
 * credits (sustained-use, committed-use, promotions: negative amounts) off the cost.
 */
export function billingExportQuery(table: string, detailed: boolean): string {
  const ownerFrom = (labels: string) =>
    `(SELECT l.value FROM UNNEST(${labels}) AS l JOIN UNNEST(@tag_keys) AS k WITH OFFSET AS o ON LOWER(l.key) = k ORDER BY o LIMIT 1)`;
  const resource = detailed ? '\n  resource.name AS resource,' : '';
  return `SELECT
  CAST(DATE(usage_start_time) AS STRING) AS day,
  invoice.month AS invoice_month,
  service.description AS service,
  project.id AS project,
  COALESCE(${ownerFrom('labels')}, ${ownerFrom('project.labels')}) AS owner,${resource}
  currency,
  SUM(cost) AS cost,
  SUM(cost) + SUM(IFNULL((SELECT SUM(c.amount) FROM UNNEST(credits) AS c), 0)) AS net
FROM \`${table}\`
WHERE DATE(_PARTITIONTIME) >= @start
  AND usage_start_time >= TIMESTAMP(@start) AND usage_start_time < TIMESTAMP(@end)
GROUP BY day, invoice_month, service, project, owner,${detailed ? ' resource,' : ''} currency`;
}

/** One result row of billingExportQuery. */
export interface BillingExportRow {
  day: string;
  invoice_month: string | null;
  service: string | null;
  project: string | null;
  owner: string | null;
  resource?: string | null;
  currency: string;
  cost: number;
  net: number;
}
