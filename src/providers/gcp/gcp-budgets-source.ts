import { BudgetServiceClient, protos } from '@google-cloud/billing-budgets';
import type { CloudBudget } from '../../domain/cloud-budget.js';
import { normaliseTag } from '../../domain/ownership.js';
import { budgetTeam } from '../budget-team.js';
import type { CloudBudgetsConfig } from '../../config/cloud-budget-config.js';
import type { BudgetSource } from '../../ports/budget-source.js';
import type { PullContext } from '../../ports/pull-context.js';
import { withRetries, type RetryPolicy } from '../retry.js';
import { explainGoogleError, isRetryableGoogleError } from './gcp-errors.js';
import { BUDGETS_LIST } from './gcp-permissions.js';
import { gaxClientOptions, type GoogleEndpoint } from './google-endpoint.js';

type Budget = protos.google.cloud.billing.budgets.v1.IBudget;

const PERIODS: Record<string, CloudBudget['period']> = { MONTH: 'monthly', QUARTER: 'quarterly', YEAR: 'annually' };

export interface GcpBudgetsSourceOptions extends CloudBudgetsConfig {
  sourceId: string;
  billingAccount: string;
  retry: RetryPolicy;
  endpoint: GoogleEndpoint;
}

/**
 * Budgets of a Cloud Billing account (amount, threshold rules, filter). Google's API gives no spend
 * figures: burnrate shows its own month-to-date spend of the mapped team beside them.
 */
export class GcpBudgetsSource implements BudgetSource {
  readonly origin = 'gcp';
  readonly id: string;
  private readonly client: BudgetServiceClient;

  constructor(private readonly options: GcpBudgetsSourceOptions) {
    this.id = `${options.sourceId}:budgets`;
    this.client = new BudgetServiceClient(gaxClientOptions(options.endpoint));
  }

  async listBudgets(ctx: PullContext): Promise<CloudBudget[]> {
    const parent = `billingAccounts/${this.options.billingAccount}`;
    const budgets: Budget[] = [];
    let pageToken: string | undefined;
    try {
      do {
        const request = { parent, pageSize: 100, ...(pageToken ? { pageToken } : {}) };
        // One page per call, so each page is retried on its own; gax's retries are off (ours cover throttling too).
        const [page, , response] = await withRetries(
          () => this.client.listBudgets(request, { autoPaginate: false, retry: null }),
          isRetryableGoogleError,
          this.options.retry,
        );
        budgets.push(...page);
        pageToken = response?.nextPageToken || undefined;
      } while (pageToken);
    } catch (error) {
      const needed = BUDGETS_LIST;
      throw explainGoogleError(error, {
        service: 'Cloud Billing Budgets',
        permission: needed.permission,
        role: needed.role,
        resource: `billing account ${this.options.billingAccount}`,
      });
    }
    return budgets.flatMap((budget) => this.toCloudBudget(budget, ctx));
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  private toCloudBudget(budget: Budget, ctx: PullContext): CloudBudget[] {
    const specified = budget.amount?.specifiedAmount;
    // A budget at "last period's spend" has no fixed amount to compare with.
    if (!budget.name || !specified) return [];
    const name = budget.displayName || budget.name;
    const rules = (budget.thresholdRules ?? [])
      .filter((r) => typeof r.thresholdPercent === 'number')
      .map((r) => ({
        threshold: Math.round(r.thresholdPercent! * 10000) / 100,
        on: String(r.spendBasis) === 'FORECASTED_SPEND' ? ('forecast' as const) : ('actual' as const),
      }))
      .sort((a, b) => a.threshold - b.threshold);
    const period = budget.budgetFilter?.calendarPeriod;
    return [
      {
        source: this.id,
        origin: 'gcp',
        id: budget.name,
        name,
        ...budgetTeam(name, labelValuesOf(budget, ctx.tagKeys), this.options.teamPattern, ctx.resolveTeam),
        period: budget.budgetFilter?.customPeriod ? 'custom' : (PERIODS[String(period ?? 'MONTH')] ?? 'monthly'),
        amount: Number(String(specified.units ?? 0)) + (specified.nanos ?? 0) / 1e9,
        currency: specified.currencyCode || 'USD',
        actual: null,
        forecast: null,
        thresholds: [...new Set(rules.map((r) => r.threshold))],
        notifications: rules,
        drivesAlerts: this.options.alerts,
      },
    ];
  }
}

/** Values of the ownership labels in a budget's label filter. */
function labelValuesOf(budget: Budget, tagKeys: readonly string[]): string[] {
  const wanted = new Set(tagKeys.map(normaliseTag));
  const labels = budget.budgetFilter?.labels ?? {};
  return Object.entries(labels).flatMap(([key, list]) =>
    wanted.has(normaliseTag(key)) ? (list.values ?? []).map((v) => v.stringValue ?? '').filter((v) => v !== '') : [],
  );
}
