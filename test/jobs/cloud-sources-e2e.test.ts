import { describe, expect, it } from 'vitest';
import { addDays } from '../../src/domain/period.js';
import { runDailyBudgetJob } from '../../src/jobs/daily-budget-job.js';
import { FakeAwsBilling, type FakeCostLine } from '../fakes/fake-aws-billing.js';
import type { FakeExportRow } from '../fakes/fake-bigquery-export.js';
import { FakeGoogleCloud } from '../fakes/fake-google-cloud.js';
import { testDeps } from '../support/deps.js';
import { fakeLifecycle } from '../support/fake-lifecycle.js';
import { stubAwsEnv } from '../support/aws-test-env.js';
import { GCP_TABLE, useGoogleFake } from '../providers/gcp/gcp-test-sources.js';

const ACCOUNT = '123456789012';
const BILLING_ACCOUNT = '012345-6789AB-CDEF01';

/** LLM Training runs on AWS: 300 a day, then two 2,000 days (21 and 22 Nov). */
function awsCosts(through: string): FakeCostLine[] {
  const lines: FakeCostLine[] = [];
  for (let day = '2026-09-01'; day < through; day = addDays(day, 1)) {
    lines.push({ day, tag: 'llm', service: 'Amazon Elastic Compute Cloud - Compute', unblended: day >= '2026-11-21' ? 2000 : 300 });
  }
  return lines;
}

/** ML Research runs on Google Cloud: 500 a day less a 100 credit, and a 3,500 day (less 500) on 21 Nov. */
function gcpRows(through: string): FakeExportRow[] {
  const rows: FakeExportRow[] = [];
  for (let day = '2026-09-01'; day < through; day = addDays(day, 1)) {
    const big = day === '2026-11-21';
    rows.push({
      day,
      service: 'Compute Engine',
      project: 'research-gpu',
      labels: { team: 'research' },
      cost: big ? 3500 : 500,
      credits: [big ? -500 : -100],
    });
  }
  return rows;
}

const CONFIG = {
  teams: [
    // No budget in burnrate.yml: the AWS budget below stands in, at its notification thresholds.
    { id: 'llm-training', name: 'LLM Training', match: ['llm'] },
    { id: 'ml-research', name: 'ML Research', match: ['research'], budget: { monthly: 20000, thresholds: [50, 80, 100], forecast: false } },
  ],
  sources: [
    { type: 'aws', budgets: { accountId: ACCOUNT, teamPattern: '^(?<team>[a-z-]+)-monthly$' } },
    { type: 'gcp', project: 'acme-billing', table: GCP_TABLE, billingAccount: BILLING_ACCOUNT, budgets: { alerts: false } },
  ],
};

const AWS_BUDGET = {
  accountId: ACCOUNT,
  budget: {
    BudgetName: 'llm-training-monthly',
    BudgetLimit: { Amount: '10000', Unit: 'USD' },
    TimeUnit: 'MONTHLY',
    BudgetType: 'COST',
    CalculatedSpend: { ActualSpend: { Amount: '6000', Unit: 'USD' } },
  },
  notifications: [
    { NotificationType: 'ACTUAL', ComparisonOperator: 'GREATER_THAN', Threshold: 50, ThresholdType: 'PERCENTAGE' },
    { NotificationType: 'ACTUAL', ComparisonOperator: 'GREATER_THAN', Threshold: 80, ThresholdType: 'PERCENTAGE' },
    { NotificationType: 'FORECASTED', ComparisonOperator: 'GREATER_THAN', Threshold: 100, ThresholdType: 'PERCENTAGE' },
  ],
};

const GCP_BUDGET = {
  name: `billingAccounts/${BILLING_ACCOUNT}/budgets/r1`,
  displayName: 'Research',
  budgetFilter: { labels: { team: ['research'] } },
  amount: { specifiedAmount: { currencyCode: 'USD', units: '25000' } },
  thresholdRules: [{ thresholdPercent: 0.9 }],
};

const fakes = fakeLifecycle<FakeAwsBilling | FakeGoogleCloud>();

describe('live spend from AWS and Google Cloud, day by day', () => {
  it('keeps spend current, alerts from it, and holds a team with a notice when its source breaks', async () => {
    const aws = fakes.track(await FakeAwsBilling.start({ costs: awsCosts('2026-11-21'), budgets: [AWS_BUDGET] }));
    const gcp = fakes.track(
      await FakeGoogleCloud.start({ table: GCP_TABLE, exportRows: gcpRows('2026-11-21'), budgets: { [BILLING_ACCOUNT]: [GCP_BUDGET] } }),
    );
    stubAwsEnv(aws.endpoint);
    const { deps, chat, setNow } = testDeps(CONFIG, '2026-11-21T09:00:00Z');
    useGoogleFake(deps, gcp);

    // Day 1: both backfill; LLM Training is at 60% of its AWS budget, ML Research at 40% of its own.
    const day1 = await runDailyBudgetJob(deps);
    expect(day1.refreshed.map((r) => [r.source, r.ok])).toEqual([
      ['aws', true],
      ['gcp', true],
      ['aws:budgets', true],
      ['gcp:budgets', true],
    ]);
    expect(chat.posted.map((p) => [p.address, p.message.summary])).toEqual([
      ['#llm-training', 'LLM Training has spent 60% of its November 2026 budget ($6,000.00 of $10,000.00)'],
    ]);

    // Day 2: the AWS key was revoked. Google's data moves ML Research past 50%; LLM Training is held.
    aws.breakCredentials();
    aws.setCosts(awsCosts('2026-11-22'));
    gcp.setExportRows(gcpRows('2026-11-22'));
    setNow('2026-11-22T09:00:00Z');
    const day2 = await runDailyBudgetJob(deps);
    expect(day2.refreshed.find((r) => r.source === 'aws')).toMatchObject({
      ok: false,
      error: expect.stringContaining('Cost Explorer rejected'),
    });
    expect(day2.check.heldTeams).toEqual(['llm-training']);
    const day2Posts = chat.posted.slice(1);
    expect(day2Posts.map((p) => [p.address, p.message.summary])).toEqual([
      ['#ml-research', 'ML Research has spent 55% of its November 2026 budget ($11,000.00 of $20,000.00)'],
      ['#llm-training', 'LLM Training: budget alerts on hold, AWS data 24 h old'],
    ]);
    const notice = JSON.stringify(day2Posts[1]!.message);
    expect(notice).toContain('UnrecognizedClientException');
    expect(notice).toContain('access key is active');
    // The open finding of the held team is neither resolved nor re-alerted.
    expect((await deps.store.findings.listOpen()).map((f) => f.id).sort()).toEqual([
      'budget.actual:llm-training:2026-11:50',
      'budget.actual:ml-research:2026-11:50',
    ]);

    // A second run the same day says nothing new.
    await runDailyBudgetJob(deps);
    expect(chat.posted).toHaveLength(3);

    // Day 3: the key is fixed. Two requests catch up the missed day and the revised ones; the held team's alerts resume.
    aws.breakCredentials(false);
    aws.setCosts(awsCosts('2026-11-23'));
    gcp.setExportRows(gcpRows('2026-11-23'));
    setNow('2026-11-23T09:00:00Z');
    const before = aws.callsOf('GetCostAndUsage').length;
    const day3 = await runDailyBudgetJob(deps);
    expect(day3.check.heldTeams).toEqual([]);
    const catchUp = aws.callsOf('GetCostAndUsage').slice(before);
    expect(catchUp.map((c) => c.input.TimePeriod)).toEqual([
      { Start: '2026-11-18', End: '2026-11-23' },
      { Start: '2026-11-18', End: '2026-11-23' },
    ]);
    const llm = day3.check.alerts
      .filter((a) => a.finding.team === 'llm-training')
      .map((a) => [a.event, a.finding.kind, a.finding.threshold]);
    // 6,000 + 2 x 2,000 = 10,000: actual spend reaches 100% (past 80 too: one escalation). The forecast passes
    // 100% as well, but spend has already crossed that line: one message for one fact, the actual one.
    expect(llm).toEqual([['escalated', 'budget.actual', 100]]);
    expect(chat.posted.slice(3).some((p) => p.address === '#llm-training' && p.message.summary.includes('100%'))).toBe(true);
    // Two Cost Explorer requests per run (usage, other charges) on days 1 and 3, and the one that
    // failed on each of day 2's two runs, however many teams.
    expect(aws.callsOf('GetCostAndUsage').filter((c) => c.accessKeyId === 'AKIDBURNRATETEST')).toHaveLength(6);
  });
});
