import {
  BudgetsClient,
  DescribeBudgetsCommand,
  DescribeNotificationsForBudgetCommand,
  type Budget,
  type Notification,
} from '@aws-sdk/client-budgets';
import type { CloudBudget } from '../../domain/cloud-budget.js';
import { normaliseTag } from '../../domain/ownership.js';
import { BurnrateError } from '../../domain/errors.js';
import { budgetTeam } from '../budget-team.js';
import type { CloudBudgetsConfig } from '../../config/cloud-budget-config.js';
import type { BudgetSource } from '../../ports/budget-source.js';
import type { PullContext } from '../../ports/pull-context.js';
import { awsAccounts, type AwsAccount } from './aws-accounts.js';
import { explainAwsError } from './aws-errors.js';
import { BUDGETS_PERMISSION } from './aws-permissions.js';

/** AWS Budgets has one endpoint, in us-east-1. */
const BUDGETS_REGION = 'us-east-1';

const PERIODS: Record<string, CloudBudget['period']> = { MONTHLY: 'monthly', QUARTERLY: 'quarterly', ANNUALLY: 'annually' };

export interface AwsBudgetsSourceOptions extends CloudBudgetsConfig {
  /** The spend source's id; budgets are recorded under `<id>:budgets`. */
  sourceId: string;
  tagKey: string;
  roleArns: readonly string[];
  /** Account read with the default credentials (roles name their own account). */
  accountId?: string | undefined;
  maxAttempts: number;
}

/** Cost budgets from AWS Budgets, with their spend and notification thresholds, for each account. */
export class AwsBudgetsSource implements BudgetSource {
  readonly origin = 'aws';
  readonly id: string;
  private readonly accounts: { account: AwsAccount; accountId: string }[];

  constructor(private readonly options: AwsBudgetsSourceOptions) {
    this.id = `${options.sourceId}:budgets`;
    this.accounts = awsAccounts(options.roleArns, BUDGETS_REGION).flatMap((account) => {
      const accountId = account.accountId ?? options.accountId;
      return accountId ? [{ account, accountId }] : [];
    });
  }

  async listBudgets(ctx: PullContext): Promise<CloudBudget[]> {
    if (this.accounts.length === 0) {
      throw new BurnrateError(
        'burnrate_aws_budgets_account',
        'AWS Budgets needs the account id to read budgets from.',
        `Set budgets.accountId (in quotes) on the aws source ${this.options.sourceId} in burnrate.yml, or list roleArns.`,
        2,
      );
    }
    const out: CloudBudget[] = [];
    for (const { account, accountId } of this.accounts) {
      const client = new BudgetsClient({
        region: BUDGETS_REGION,
        maxAttempts: this.options.maxAttempts,
        ...(account.credentials ? { credentials: account.credentials } : {}),
      });
      try {
        for (const budget of await describeBudgets(client, accountId)) {
          if (budget.BudgetType !== 'COST' || !budget.BudgetName || !budget.BudgetLimit) continue;
          const notifications = await describeNotifications(client, accountId, budget.BudgetName);
          out.push(this.toCloudBudget(budget, accountId, notifications, ctx));
        }
      } catch (error) {
        throw explainAwsError(error, { service: 'AWS Budgets', permission: BUDGETS_PERMISSION, account: account.label });
      } finally {
        client.destroy();
      }
    }
    return out;
  }

  private toCloudBudget(budget: Budget, accountId: string, notifications: Notification[], ctx: PullContext): CloudBudget {
    const name = budget.BudgetName!;
    const limit = budget.BudgetLimit!;
    const percents = notifications
      .filter(
        (n) =>
          (n.ThresholdType ?? 'PERCENTAGE') === 'PERCENTAGE' && n.ComparisonOperator !== 'LESS_THAN' && typeof n.Threshold === 'number',
      )
      .map((n) => ({ threshold: n.Threshold!, on: n.NotificationType === 'FORECASTED' ? ('forecast' as const) : ('actual' as const) }))
      .sort((a, b) => a.threshold - b.threshold);
    return {
      source: this.id,
      origin: 'aws',
      id: `${accountId}/${name}`,
      name,
      ...budgetTeam(name, tagValuesOf(budget.CostFilters, this.options.tagKey), this.options.teamPattern, ctx.resolveTeam),
      period: PERIODS[budget.TimeUnit ?? ''] ?? 'custom',
      amount: Number(limit.Amount),
      currency: limit.Unit ?? 'USD',
      actual: amountOf(budget.CalculatedSpend?.ActualSpend?.Amount),
      forecast: amountOf(budget.CalculatedSpend?.ForecastedSpend?.Amount),
      thresholds: [...new Set(percents.map((p) => p.threshold))],
      notifications: percents,
      drivesAlerts: this.options.alerts,
    };
  }
}

async function describeBudgets(client: BudgetsClient, accountId: string): Promise<Budget[]> {
  const budgets: Budget[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(new DescribeBudgetsCommand({ AccountId: accountId, MaxResults: 100, NextToken: token }));
    budgets.push(...(page.Budgets ?? []));
    token = page.NextToken;
  } while (token);
  return budgets;
}

async function describeNotifications(client: BudgetsClient, accountId: string, budgetName: string): Promise<Notification[]> {
  const notifications: Notification[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(
      new DescribeNotificationsForBudgetCommand({ AccountId: accountId, BudgetName: budgetName, MaxResults: 100, NextToken: token }),
    );
    notifications.push(...(page.Notifications ?? []));
    token = page.NextToken;
  } while (token);
  return notifications;
}

/** Values of the ownership tag in a budget's `TagKeyValue` filter (`user:team$ml-research`). */
function tagValuesOf(filters: Record<string, string[]> | undefined, tagKey: string): string[] {
  const wanted = normaliseTag(tagKey);
  return (filters?.TagKeyValue ?? []).flatMap((entry) => {
    const at = entry.indexOf('$');
    if (at < 0) return [];
    const key = normaliseTag(entry.slice(0, at).replace(/^user:/i, ''));
    return key === wanted && entry.slice(at + 1) !== '' ? [entry.slice(at + 1)] : [];
  });
}

function amountOf(text: string | undefined): number | null {
  if (text === undefined) return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}
