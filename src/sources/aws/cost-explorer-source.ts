import { CostExplorerClient, GetCostAndUsageCommand, type ResultByTime } from '@aws-sdk/client-cost-explorer';
import type { SpendBatch } from '../../domain/spend.js';
import { incrementalWindow, monthsOf, type DayWindow } from '../incremental-window.js';
import type { PullContext } from '../../ports/pull-context.js';
import type { SpendSource } from '../../ports/spend-source.js';
import { awsAccounts, type AwsAccount } from './aws-accounts.js';
import { explainAwsError } from './aws-errors.js';
import { costAndUsageRows } from './cost-and-usage-rows.js';
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
 * Daily spend from Cost Explorer. Each request costs money (USD 0.01), so a refresh asks once per
 * account for every missing day at once, grouped by the ownership tag and the service: the number
 * of teams changes the size of the answer, never the number of requests. Only pages beyond the
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
      const results = await this.costAndUsage(account, window).catch((error: unknown) => {
        throw explainAwsError(error, { service: 'Cost Explorer', permission: COST_EXPLORER_PERMISSION, account: account.label });
      });
      rows.push(...costAndUsageRows(results, ctx, account.accountId));
    }
    // One batch: the window is replaced for every account at once, or not at all.
    return [
      { scope: { source: this.id, billingPeriods: monthsOf(window), days: window }, rows, dataThrough: `${window.end}T00:00:00.000Z` },
    ];
  }

  private async costAndUsage(account: AwsAccount, window: DayWindow): Promise<ResultByTime[]> {
    const client = this.clientFor(account);
    const results: ResultByTime[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new GetCostAndUsageCommand({
          TimePeriod: { Start: window.start, End: window.end },
          Granularity: 'DAILY',
          Metrics: ['UnblendedCost', 'AmortizedCost'],
          GroupBy: [
            { Type: 'TAG', Key: this.options.tagKey },
            { Type: 'DIMENSION', Key: 'SERVICE' },
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
