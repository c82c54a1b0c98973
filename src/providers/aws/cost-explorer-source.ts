import { CostExplorerClient, GetCostAndUsageCommand, type ResultByTime } from '@aws-sdk/client-cost-explorer';
import type { SpendBatch } from '../../domain/spend.js';
import { incrementalWindow, monthsOf, type DayWindow } from '../incremental-window.js';
import type { PullContext } from '../../ports/pull-context.js';
import type { SpendSource } from '../../ports/spend-source.js';
import { awsAccounts, type AwsAccount } from './aws-accounts.js';
import { explainAwsError } from './aws-errors.js';
import { costAndUsageRows } from './cost-and-usage-rows.js';
import { USAGE_RECORD_TYPES } from './record-types.js';
import { COST_EXPLORER_PERMISSION } from './aws-permissions.js';

/** Cost Explorer has one endpoint, in us-east-1. */
export const COST_EXPLORER_REGION = 'us-east-1';

export interface CostExplorerSourceOptions {
  id: string;
  /** The cost allocation tag key (without `user:`). */
  tagKey: string;
  backfillDays: number;
  roleArns: readonly string[];
  maxAttempts: number;
}

/**
 * Daily spend from Cost Explorer. Each request costs money (USD 0.01), so a refresh asks twice per
 * account for every missing day at once: usage grouped by the ownership tag and the service, and
 * the other charges (tax, support, fees, credits, refunds) by the tag and their record type, so
 * they carry FOCUS charge categories. The number of teams changes the size of the answers, never
 * the number of requests. Only pages beyond the
 * first cost more, and a daily refresh of a few days fits in one.
 */
export class CostExplorerSource implements SpendSource {
  readonly type = 'aws';
  readonly id: string;
  private readonly accounts: AwsAccount[];
  private readonly clients = new Map<AwsAccount, CostExplorerClient>();

  constructor(private readonly options: CostExplorerSourceOptions) {
    this.id = options.id;
    this.accounts = awsAccounts(options.roleArns, COST_EXPLORER_REGION);
  }

  async pull(ctx: PullContext): Promise<SpendBatch[]> {
    const window = incrementalWindow(ctx.dataThrough?.(this.id) ?? null, ctx.now, this.options.backfillDays);
    const rows = [];
    for (const account of this.accounts) {
      const explain = (error: unknown) => {
        throw explainAwsError(error, { service: 'Cost Explorer', permission: COST_EXPLORER_PERMISSION, account: account.label });
      };
      const usage = await this.costAndUsage(account, window, 'usage').catch(explain);
      const others = await this.costAndUsage(account, window, 'others').catch(explain);
      rows.push(
        ...costAndUsageRows(usage, ctx, account.accountId, 'service'),
        ...costAndUsageRows(others, ctx, account.accountId, 'recordType'),
      );
    }
    // One batch: the window is replaced for every account at once, or not at all.
    return [
      { scope: { source: this.id, billingPeriods: monthsOf(window), days: window }, rows, dataThrough: `${window.end}T00:00:00.000Z` },
    ];
  }

  /**
   * Usage (its record types) grouped by tag and service, or everything else (taxes, fees, credits,
   * refunds) grouped by tag and record type: two dimensions is all one request can group by.
   */
  private async costAndUsage(account: AwsAccount, window: DayWindow, part: 'usage' | 'others'): Promise<ResultByTime[]> {
    const usageTypes = { Dimensions: { Key: 'RECORD_TYPE' as const, Values: [...USAGE_RECORD_TYPES] } };
    const client = this.clientFor(account);
    const results: ResultByTime[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new GetCostAndUsageCommand({
          TimePeriod: { Start: window.start, End: window.end },
          Granularity: 'DAILY',
          Metrics: ['UnblendedCost', 'AmortizedCost'],
          Filter: part === 'usage' ? usageTypes : { Not: usageTypes },
          GroupBy: [
            { Type: 'TAG', Key: this.options.tagKey },
            { Type: 'DIMENSION', Key: part === 'usage' ? 'SERVICE' : 'RECORD_TYPE' },
          ],
          NextPageToken: token,
        }),
      );
      results.push(...(page.ResultsByTime ?? []));
      token = page.NextPageToken;
    } while (token);
    return results;
  }

  private clientFor(account: AwsAccount): CostExplorerClient {
    let client = this.clients.get(account);
    if (!client) {
      client = new CostExplorerClient({
        region: COST_EXPLORER_REGION,
        maxAttempts: this.options.maxAttempts,
        ...(account.credentials ? { credentials: account.credentials } : {}),
      });
      this.clients.set(account, client);
    }
    return client;
  }
}
