import { AthenaClient } from '@aws-sdk/client-athena';
import type { SpendBatch } from '../../../domain/spend.js';
import type { PullContext } from '../../../ports/pull-context.js';
import type { SpendSource } from '../../../ports/spend-source.js';
import { spendRowOf, type AggregatedSpendRow } from '../../aggregated-spend-row.js';
import { awsAccounts, type AwsAccount } from '../aws-accounts.js';
import { incrementalWindow } from '../../incremental-window.js';
import { runAthenaQuery } from './athena-query.js';
import { billingPeriodsRead } from './billing-periods-read.js';
import type { ExportFormat } from './export-columns.js';
import { exportAggregationSql, type ExportResultRow } from './export-query-sql.js';
import { podSplitSql, podSplitsOf } from './pod-split-sql.js';

export interface AthenaSourceOptions {
  id: string;
  database: string;
  table: string;
  format: ExportFormat;
  workgroup: string;
  outputLocation?: string | undefined;
  region: string;
  catalog: string;
  /** The ownership tag key; none: the configured ownership tag keys. */
  tagKey?: string | undefined;
  resources: boolean;
  backfillDays: number;
  maxGigabytesScanned: number;
  roleArn?: string | undefined;
  maxAttempts: number;
  /** Read the bill's pod split too (a CUR 2.0 table with split cost allocation data). */
  podSplit?: boolean | undefined;
}

/**
 * Daily AWS spend from an AWS Data Exports table (FOCUS 1.2 or CUR 2.0) through Amazon Athena: the
 * import's aggregation runs where the export is, so only the daily groups travel, however many
 * hundred million line items a month has. Pulled incrementally like the other cloud sources, but
 * by whole billing periods: see billingPeriodsRead.
 */
export class AthenaSpendSource implements SpendSource {
  readonly type = 'athena';
  readonly id: string;
  private readonly account: AwsAccount;
  private readonly client: AthenaClient;

  constructor(private readonly options: AthenaSourceOptions) {
    this.id = options.id;
    this.account = awsAccounts(options.roleArn ? [options.roleArn] : [], options.region)[0]!;
    this.client = new AthenaClient({
      region: options.region,
      maxAttempts: options.maxAttempts,
      ...(this.account.credentials ? { credentials: this.account.credentials } : {}),
    });
  }

  async pull(ctx: PullContext): Promise<SpendBatch[]> {
    const window = incrementalWindow(ctx.dataThrough?.(this.id) ?? null, ctx.now, this.options.backfillDays);
    const billingPeriods = billingPeriodsRead(window);
    const { options } = this;
    const sql = exportAggregationSql({
      database: options.database,
      table: options.table,
      format: options.format,
      tagKeys: options.tagKey ? [options.tagKey] : ctx.tagKeys,
      unitTagKeys: ctx.unitTagKeys,
      resources: options.resources,
      billingPeriods,
      before: window.end,
    });
    const maxBytesScanned = options.maxGigabytesScanned * 1e9;
    const run = (query: string) =>
      runAthenaQuery(this.client, query, {
        sourceId: this.id,
        table: `${options.database}.${options.table}`,
        database: options.database,
        catalog: options.catalog,
        workgroup: options.workgroup,
        outputLocation: options.outputLocation,
        maxBytesScanned,
        account: this.account.label,
      });
    const result = await run(sql);
    const split = options.podSplit ? await run(podSplitSql({ ...options, billingPeriods, before: window.end })) : null;
    // A query that finished between two polls may have scanned past the limit: it is paid for, so
    // its rows are kept, and the log says so.
    const warnings = [result, ...(split ? [split] : [])]
      .filter((r) => r.scannedBytes > maxBytesScanned)
      .map(
        (r) =>
          `Athena scanned ${(r.scannedBytes / 1e9).toFixed(1)} GB, more than maxGigabytesScanned (${options.maxGigabytesScanned} GB): set a per-query data usage control on the workgroup ${options.workgroup}.`,
      );
    return [
      {
        // Whole billing periods are replaced: the export revises lines anywhere in a period until it is final.
        scope: { source: this.id, billingPeriods },
        rows: (result.rows as ExportResultRow[]).map((row) => spendRowOf(aggregatedRowOf(row), ctx)),
        ...(split ? { podSplits: podSplitsOf(split.rows) } : {}),
        dataThrough: `${window.end}T00:00:00.000Z`,
        warnings,
      },
    ];
  }
}

/** Athena gives every value as text: amounts become numbers (from exact decimal sums), the rest stays as it is. */
function aggregatedRowOf(row: ExportResultRow): AggregatedSpendRow {
  const amount = (text: string | null) => (text === null ? null : Number(text));
  return {
    ...row,
    billed: amount(row.billed),
    effective: amount(row.effective),
    list_cost: amount(row.list_cost),
    contracted_cost: amount(row.contracted_cost),
    pricing_effective: amount(row.pricing_effective),
    usage_hours: amount(row.usage_hours),
  };
}
