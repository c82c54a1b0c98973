import { BigQuery } from '@google-cloud/bigquery';
import type { SpendBatch, SpendRow } from '../../domain/spend.js';
import { incrementalWindow, monthsOf } from '../incremental-window.js';
import type { PullContext } from '../../ports/pull-context.js';
import type { SpendSource } from '../../ports/spend-source.js';
import { withRetries, type RetryPolicy } from '../retry.js';
import { normaliseTag } from '../../domain/ownership.js';
import { billingExportQuery, type BillingExportRow } from './billing-export-sql.js';
import { explainGoogleError, isRetryableGoogleError } from './gcp-errors.js';
import { BIGQUERY_JOBS, BIGQUERY_READ } from './gcp-permissions.js';
import type { GoogleEndpoint } from './google-endpoint.js';

export interface BigQuerySourceOptions {
  id: string;
  project: string;
  table: string;
  detailed: boolean;
  location: string;
  backfillDays: number;
  maxGigabytesBilled: number;
  retry: RetryPolicy;
  endpoint: GoogleEndpoint;
}

/**
 * Daily spend from the Cloud Billing export in BigQuery, pulled incrementally like Cost Explorer:
 * one query for the missing days and the last three again, grouped in BigQuery so only a few
 * thousand aggregate rows travel, whatever the size of the bill.
 */
export class BigQueryBillingSource implements SpendSource {
  readonly type = 'gcp';
  readonly id: string;
  private readonly client: BigQuery;

  constructor(private readonly options: BigQuerySourceOptions) {
    this.id = options.id;
    // Retries are ours (withRetries), so that throttling is retried the same way for every Google API.
    this.client = new BigQuery({
      projectId: options.project,
      location: options.location,
      autoRetry: false,
      ...(options.endpoint.url ? { apiEndpoint: options.endpoint.url.origin } : {}),
      ...(options.endpoint.authClient ? { authClient: options.endpoint.authClient } : {}),
    });
  }

  async pull(ctx: PullContext): Promise<SpendBatch[]> {
    const window = incrementalWindow(ctx.dataThrough?.(this.id) ?? null, ctx.now, this.options.backfillDays);
    const query = {
      query: billingExportQuery(this.options.table, this.options.detailed),
      params: { start: BigQuery.date(window.start), end: BigQuery.date(window.end), tag_keys: ctx.tagKeys.map(normaliseTag) },
      types: { start: 'DATE', end: 'DATE', tag_keys: ['STRING'] },
      location: this.options.location,
      // The bot must never become a line on the bill: BigQuery refuses a query that would scan more.
      maximumBytesBilled: String(Math.round(this.options.maxGigabytesBilled * 1e9)),
    };
    const rows = await withRetries(
      async () => (await this.client.query(query))[0] as BillingExportRow[],
      isRetryableGoogleError,
      this.options.retry,
    ).catch((error: unknown) => {
      const denied = /tables\.getData|Access Denied: Table/i.test(String((error as Error).message)) ? BIGQUERY_READ : BIGQUERY_JOBS;
      throw explainGoogleError(error, {
        service: 'BigQuery',
        permission: denied.permission,
        role: denied.role,
        resource: `table ${this.options.table}`,
      });
    });
    return [
      {
        scope: { source: this.id, billingPeriods: monthsOf(window), days: window },
        rows: rows.map((row) => toSpendRow(row, ctx)),
        dataThrough: `${window.end}T00:00:00.000Z`,
      },
    ];
  }
}

function toSpendRow(row: BillingExportRow, ctx: PullContext): SpendRow {
  const owner = row.owner?.trim() ? row.owner : null;
  const month = row.invoice_month;
  return {
    day: row.day,
    billingPeriod: month && /^\d{6}$/.test(month) ? `${month.slice(0, 4)}-${month.slice(4)}` : row.day.slice(0, 7),
    team: ctx.resolveTeam(owner),
    ownerTag: owner,
    provider: 'Google Cloud',
    billingAccount: null,
    subAccount: row.project,
    service: row.service ?? '(unknown service)',
    serviceCategory: null,
    resourceId: row.resource ?? null,
    resourceName: row.resource_name ?? null,
    usageHours: row.usage_hours === null || row.usage_hours === undefined ? null : Number(row.usage_hours),
    chargeCategory: 'Usage',
    pricingCategory: null,
    currency: row.currency,
    billed: Number(row.cost),
    effective: Number(row.net),
  };
}
