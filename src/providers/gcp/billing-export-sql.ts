/**
 * The query over the Cloud Billing export: one row per day, invoice month, service, project,
 * owner and currency (and resource, for the detailed export). Reading only the partitions of the
 * window keeps the scanned bytes, and so the query's own cost, to those days.
 *
 * The owner is the first ownership key found among the cost's resource labels, then among its
 * project's labels (keys compared lower-case: Google's label keys are lower-case). `net` nets the
 * credits (sustained-use, committed-use, promotions: negative amounts) off the cost.
 *
 * The detailed export names a resource twice: `resource.global_name`, its unique name
 * (`//compute.googleapis.com/projects/<project>/zones/<zone>/instances/<numeric id>` for a VM, the
 * id burnrate's Compute Engine inventory gives it), and `resource.name`, the name its owner chose.
 * A line is keyed by the first and shows the second. A VM's hours of use are the hourly usage
 * windows (`usage_start_time`) in which it was charged for time: its CPU, memory and GPU lines
 * each count the same hour, so the windows are counted, not the lines' quantities (core-seconds,
 * GPU-seconds); an hour used in part counts whole, so its billed rate is never overstated.
 */
/** A Compute Engine VM's global name, as a LIKE pattern. */
export const VM_GLOBAL_NAME = '//compute.googleapis.com/projects/%/instances/%';

export function billingExportQuery(table: string, detailed: boolean): string {
  const ownerFrom = (labels: string) =>
    `(SELECT l.value FROM UNNEST(${labels}) AS l JOIN UNNEST(@tag_keys) AS k WITH OFFSET AS o ON LOWER(l.key) = k ORDER BY o LIMIT 1)`;
  const resource = detailed
    ? `
  COALESCE(resource.global_name, resource.name) AS resource,
  MAX(IF(resource.global_name IS NULL, NULL, resource.name)) AS resource_name,
  NULLIF(COUNT(DISTINCT IF(usage.unit = 'seconds' AND resource.global_name LIKE '${VM_GLOBAL_NAME}', usage_start_time, NULL)), 0) AS usage_hours,`
    : '';
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
  resource_name?: string | null;
  usage_hours?: number | null;
  currency: string;
  cost: number;
  net: number;
}
