import { describe, expect, it } from 'vitest';
import { refreshSources } from '../../../src/jobs/refresh-sources.js';
import { buildSources } from '../../../src/providers/registry.js';
import { FakeAwsBilling, type FakeBudget } from '../../fakes/fake-aws-billing.js';
import { testDeps } from '../../support/deps.js';
import { fakeLifecycle } from '../../support/fake-lifecycle.js';
import { stubAwsEnv } from '../../support/aws-test-env.js';
import { demoTeams } from '../../support/demo-org.js';

const ACCOUNT = '123456789012';

function budget(name: string, amount: number, extra: Record<string, unknown> = {}, notifications: [string, number][] = []): FakeBudget {
  return {
    accountId: ACCOUNT,
    budget: {
      BudgetName: name,
      BudgetLimit: { Amount: `${amount}.0`, Unit: 'USD' },
      TimeUnit: 'MONTHLY',
      BudgetType: 'COST',
      TimePeriod: { Start: 1_759_276_800, End: 3_706_473_600 },
      CalculatedSpend: {
        ActualSpend: { Amount: String(amount * 0.42), Unit: 'USD' },
        ForecastedSpend: { Amount: String(amount * 1.1), Unit: 'USD' },
      },
      LastUpdatedTime: 1_764_000_000,
      ...extra,
    },
    notifications: notifications.map(([type, threshold]) => ({
      NotificationType: type,
      ComparisonOperator: 'GREATER_THAN',
      Threshold: threshold,
      ThresholdType: 'PERCENTAGE',
      NotificationState: 'OK',
    })),
  };
}

const BUDGETS: FakeBudget[] = [
  budget('ml-research-monthly', 40000, {}, [
    ['ACTUAL', 80],
    ['FORECASTED', 100],
    ['ACTUAL', 50],
  ]),
  budget('GPU fleet (LLM)', 120000, { CostFilters: { TagKeyValue: ['user:team$llm'] } }, [['ACTUAL', 90]]),
  budget('Company total', 500000),
  budget('Quarterly research', 90000, { TimeUnit: 'QUARTERLY', CostFilters: { TagKeyValue: ['user:team$research'] } }),
  budget('Usage hours', 100, { BudgetType: 'USAGE' }),
];

const CONFIG = {
  teams: demoTeams(),
  sources: [{ type: 'aws', budgets: { accountId: ACCOUNT, teamPattern: '^(?<team>[a-z0-9-]+)-monthly$' } }],
};

const fakes = fakeLifecycle<FakeAwsBilling>();

async function setup(budgetsPerPage = 100) {
  const fake = fakes.track(await FakeAwsBilling.start({ budgets: BUDGETS, budgetsPerPage }));
  stubAwsEnv(fake.endpoint);
  const t = testDeps(CONFIG);
  t.deps.budgetSources = buildSources(t.deps.config, process.env).budgets;
  return { ...t, fake };
}

describe('AWS Budgets source', () => {
  it('lists cost budgets across pages with spend, forecast and notification thresholds, mapped to teams', async () => {
    const { deps, fake } = await setup(2);
    const [result] = await refreshSources(deps);
    expect(result).toMatchObject({ source: 'aws:budgets', ok: true, budgets: 4 });
    expect(fake.callsOf('DescribeBudgets')).toHaveLength(3);
    expect(fake.callsOf('DescribeBudgets').every((c) => c.input.AccountId === ACCOUNT && c.service === 'budgets')).toBe(true);
    const budgets = new Map((await deps.store.cloudBudgets.list()).map((b) => [b.name, b]));
    expect(budgets.get('ml-research-monthly')).toMatchObject({
      origin: 'aws',
      id: `${ACCOUNT}/ml-research-monthly`,
      team: 'ml-research',
      mappedBy: 'name',
      period: 'monthly',
      amount: 40000,
      actual: 16800,
      forecast: 44000,
      thresholds: [50, 80, 100],
      notifications: [
        { threshold: 50, on: 'actual' },
        { threshold: 80, on: 'actual' },
        { threshold: 100, on: 'forecast' },
      ],
    });
    expect(budgets.get('GPU fleet (LLM)')).toMatchObject({ team: 'llm-training', mappedBy: 'filter', thresholds: [90] });
    expect(budgets.get('Company total')).toMatchObject({ team: null, mappedBy: null });
    expect(budgets.get('Quarterly research')).toMatchObject({ team: 'ml-research', period: 'quarterly' });
    expect(budgets.has('Usage hours')).toBe(false);
  });

  it('names budgets:ViewBudget when AWS denies it, after retrying throttling', async () => {
    const { deps, fake } = await setup();
    fake.failNext('DescribeBudgets', 'Throttling', 1);
    expect((await refreshSources(deps))[0]).toMatchObject({ ok: true, budgets: 4 });
    fake.failNext('DescribeBudgets', 'AccessDenied');
    const [denied] = await refreshSources(deps);
    expect(denied!.ok).toBe(false);
    expect(denied!.error).toContain('AWS Budgets denied budgets:ViewBudget');
    // The budgets listed before stay.
    expect(await deps.store.cloudBudgets.list()).toHaveLength(4);
    expect((await deps.store.freshness.failures()).map((f) => f.source)).toEqual(['aws:budgets']);
  });
});
