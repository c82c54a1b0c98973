import { describe, expect, it } from 'vitest';
import { findingId, type Finding } from '../../src/domain/finding.js';
import type { SpendReport } from '../../src/domain/spend-report.js';
import { budgetAlert, budgetAlertDetails, type BudgetAlertData } from '../../templates/budget-alert.js';
import { firstSectionWords } from '../support/first-section.js';
import type { Message } from '../../templates/message.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { spendSummary } from '../../templates/spend-summary.js';
import { describeRenderings } from '../support/renderings.js';
import { budgetListMessage } from '../../templates/budget-list.js';
import { staleDataNotice } from '../../templates/stale-data-notice.js';
import type { StaleSource } from '../../src/domain/staleness.js';
import type { BudgetLine } from '../../src/domain/budget-listing.js';

const actual: Finding = {
  id: findingId('budget.actual', 'ml-research', '2026-11', 80),
  kind: 'budget.actual',
  team: 'ml-research',
  cadence: 'monthly',
  period: '2026-11',
  range: { start: '2026-11-01', end: '2026-12-01' },
  threshold: 80,
  amount: 49_210.5,
  budget: 60_000,
  currency: 'USD',
  actual: 49_210.5,
  forecast: { amount: 71_830.25, method: 'weekday averages of the last 28 days' },
  dataThrough: '2026-11-24T00:00:00Z',
};
const forecast: Finding = {
  ...actual,
  id: findingId('budget.forecast', 'ml-research', '2026-11', 100),
  kind: 'budget.forecast',
  threshold: 100,
  amount: 71_830.25,
};
const weekly: Finding = {
  ...actual,
  cadence: 'weekly',
  period: '2026-W48',
  range: { start: '2026-11-23', end: '2026-11-30' },
  budget: 9_000,
  amount: 4_800,
  actual: 4_800,
  threshold: 50,
  forecast: null,
  currency: 'EUR',
};

const alerts: Record<string, BudgetAlertData> = {
  'actual-new': { finding: actual, teamName: 'ML Research', event: 'new', previousThreshold: null },
  'actual-escalated': { finding: actual, teamName: 'ML Research', event: 'escalated', previousThreshold: 50 },
  'forecast-new': { finding: forecast, teamName: 'ML Research', event: 'new', previousThreshold: null },
  'forecast-resolved': { finding: forecast, teamName: 'ML Research', event: 'resolved', previousThreshold: null },
  'weekly-eur': { finding: weekly, teamName: 'Inference <Platform> & Co', event: 'new', previousThreshold: null },
};

const report: SpendReport = {
  period: { start: '2026-11-01', end: '2026-12-01' },
  currency: 'USD',
  by: 'team',
  rows: [
    { key: 'llm-training', billed: 160_200.1, effective: 151_003.33 },
    { key: 'ml-research', billed: 58_000, effective: 55_120.9 },
    { key: '(untagged)', billed: 6_100.25, effective: 6_100.25 },
    { key: '(unmapped)', billed: 910, effective: 905.5 },
  ],
  total: { billed: 225_210.35, effective: 213_129.98 },
  dataThrough: '2026-12-01T00:00:00Z',
  warnings: [],
};

const awsStale: StaleSource = {
  source: 'aws',
  label: 'AWS',
  ageHours: 26,
  failedAt: '2026-12-02T08:00:00Z',
  kind: 'spend',
  error:
    "Cost Explorer denied ce:GetCostAndUsage to burnrate's AWS credentials: User: arn:aws:iam::123456789012:user/burnrate is not authorized to perform: ce:GetCostAndUsage Allow ce:GetCostAndUsage for the IAM role or user burnrate runs as (docs/permissions.md lists every permission burnrate needs).",
};

const budgetLines: BudgetLine[] = [
  {
    origin: 'config',
    name: 'monthly',
    team: 'ml-research',
    period: 'monthly',
    amount: 60_000,
    currency: 'USD',
    actual: 49_210.5,
    actualFrom: 'burnrate',
    forecast: 71_830.25,
    thresholds: [50, 80, 100],
    drivesAlerts: true,
  },
  {
    origin: 'aws',
    name: 'llm-training-monthly',
    team: 'llm-training',
    period: 'monthly',
    amount: 150_000,
    currency: 'USD',
    actual: 98_000,
    actualFrom: 'cloud',
    forecast: 161_000,
    thresholds: [80, 100],
    drivesAlerts: true,
  },
  {
    origin: 'gcp',
    name: 'Research <GPUs> & TPUs',
    team: 'ml-research',
    period: 'quarterly',
    amount: 40_000,
    currency: 'EUR',
    actual: null,
    actualFrom: null,
    forecast: null,
    thresholds: [90],
    drivesAlerts: false,
  },
];

const messages: Record<string, Message> = {
  ...Object.fromEntries(Object.entries(alerts).map(([name, data]) => [`budget-alert ${name}`, budgetAlert(data)])),
  ...Object.fromEntries(Object.entries(alerts).map(([name, data]) => [`budget-alert details ${name}`, budgetAlertDetails(data)])),
  'spend-summary by-team': spendSummary(report, 'all teams'),
  'spend-summary empty': spendSummary({ ...report, rows: [], total: { billed: 0, effective: 0 }, dataThrough: null }, 'ml-research'),
  'spend-summary many-rows': spendSummary(
    {
      ...report,
      by: 'resource',
      rows: Array.from({ length: 40 }, (_, i) => ({
        key: `arn:aws:ec2:us-east-1:123456789012:instance/i-${String(i).padStart(17, '0')}`,
        billed: 1000 - i,
        effective: 990 - i,
      })),
    },
    'llm-training',
  ),
  'stale-data-notice aws': staleDataNotice({ teamName: 'LLM Training', stale: [awsStale] }),
  'budget-list mixed': budgetListMessage({ budgets: budgetLines, dataThrough: '2026-12-01T00:00:00Z', stale: [awsStale] }),
  'budget-list empty': budgetListMessage({ budgets: [], dataThrough: null, stale: [] }),
};

describeRenderings(messages, {
  what: 'how fresh the data is',
  pattern: /billing data through \d+ \w{3}|no billing data yet|data \d+ h old/,
});

describe('budget alert wording', () => {
  it('says what was crossed, with money formatted in the budget currency', () => {
    const text = renderPlainText(budgetAlert(alerts['weekly-eur']!));
    expect(text).toContain('€4,800.00');
    expect(text).toContain('week of 23 Nov');
  });

  it('names the escalation; its Details name the forecast method', () => {
    const text = renderPlainText(budgetAlert(alerts['actual-escalated']!));
    expect(text).toContain('Escalated from 50%');
    expect(text).toContain('billing data through 23 Nov');
    const details = renderPlainText(budgetAlertDetails(alerts['actual-escalated']!));
    expect(details).toContain('forecast: weekday averages of the last 28 days');
    expect(details).toContain('billing data through 23 Nov');
  });

  it('says what, how much and who in at most 25 words before its buttons; the figures behind it are in its Details', () => {
    for (const [name, data] of Object.entries(alerts)) {
      if (data.event === 'resolved') continue;
      expect(firstSectionWords(budgetAlert(data)).lead, name).toBeLessThanOrEqual(25);
    }
    const forecast = Object.values(alerts).find((a) => a.finding.forecast && a.event !== 'resolved')!;
    const details = renderPlainText(budgetAlertDetails(forecast));
    for (const label of ['Spent so far', 'Forecast at period end', 'Period', `finding ${forecast.finding.id}`])
      expect(details).toContain(label);
  });
});
