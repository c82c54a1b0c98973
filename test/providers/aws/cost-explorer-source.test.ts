import { describe, expect, it } from 'vitest';
import { refreshSources } from '../../../src/jobs/refresh-sources.js';
import { addDays } from '../../../src/domain/period.js';
import { buildSources } from '../../../src/providers/registry.js';
import { FakeAwsBilling, type FakeAwsBillingOptions, type FakeCostLine } from '../../fakes/fake-aws-billing.js';
import { testDeps } from '../../support/deps.js';
import { fakeLifecycle } from '../../support/fake-lifecycle.js';
import { stubAwsEnv } from '../../support/aws-test-env.js';

const NOW = '2026-11-21T09:00:00Z';
const SERVICES = [
  'Amazon Elastic Compute Cloud - Compute',
  'Amazon Simple Storage Service',
  'Amazon SageMaker',
  'AWS Data Transfer',
  'Amazon CloudWatch',
];

/** 40 teams, each with five services every day; team-7 spends 10 a day per service, the others 1. */
const TEAMS = Array.from({ length: 40 }, (_, i) => `team-${i}`);

function costs(from: string, to: string, extra: (day: string) => FakeCostLine[] = () => []): FakeCostLine[] {
  const lines: FakeCostLine[] = [];
  for (let day = from; day < to; day = addDays(day, 1)) {
    for (const team of TEAMS)
      for (const service of SERVICES)
        lines.push({ day, tag: team, service, unblended: team === 'team-7' ? 10 : 1, amortized: team === 'team-7' ? 9 : 1 });
    lines.push({ day, tag: null, service: 'AWS Support', unblended: 5 });
    lines.push(...extra(day));
  }
  return lines;
}

function config(source: Record<string, unknown> = {}) {
  return {
    ownership: { tagKeys: ['user:team'] },
    teams: TEAMS.map((id) => ({ id, budget: { monthly: 1000 } })),
    sources: [{ type: 'aws', ...source }],
  };
}

const fakes = fakeLifecycle<FakeAwsBilling>();

async function setup(
  options: Omit<FakeAwsBillingOptions, 'costs'> & { costs?: FakeCostLine[] } = {},
  source: Record<string, unknown> = {},
) {
  const fake = fakes.track(await FakeAwsBilling.start({ costs: costs('2026-09-01', '2026-11-21'), ...options }));
  stubAwsEnv(fake.endpoint);
  const t = testDeps(config(source), NOW);
  const built = buildSources(t.deps.config, process.env);
  t.deps.sources = built.spend;
  t.deps.budgetSources = built.budgets;
  return { ...t, fake };
}

describe('Cost Explorer source', () => {
  it('backfills, then keeps current with two requests a day whatever the number of teams', async () => {
    const { deps, fake, setNow } = await setup();
    const first = await refreshSources(deps);
    expect(first).toMatchObject([{ source: 'aws', ok: true }]);
    const backfill = fake.callsOf('GetCostAndUsage');
    // Usage by service, and the other charges by record type.
    expect(backfill).toHaveLength(2);
    // The tag key is Cost Explorer's (no "user:"), the window the 70 days before today.
    expect(backfill[0]!.input).toMatchObject({
      TimePeriod: { Start: '2026-09-12', End: '2026-11-21' },
      GroupBy: [
        { Type: 'TAG', Key: 'team' },
        { Type: 'DIMENSION', Key: 'SERVICE' },
      ],
    });
    expect(backfill[1]!.input.GroupBy[1]).toEqual({ Type: 'DIMENSION', Key: 'RECORD_TYPE' });
    expect(backfill[1]!.input.Filter).toEqual({ Not: backfill[0]!.input.Filter });
    expect(backfill[0]!.service).toBe('ce');

    const november = { period: { start: '2026-11-01', end: '2026-11-21' } };
    const byTeam = new Map((await deps.store.spend.totals(november, 'team')).map((r) => [r.key, r]));
    expect(byTeam.get('team-7')).toMatchObject({ billed: 20 * 5 * 10, effective: 20 * 5 * 9 });
    expect(byTeam.get('team-0')).toMatchObject({ billed: 100, effective: 100 });
    expect(byTeam.get('(untagged)')).toMatchObject({ billed: 100 });

    // Next day: AWS revised 19 Nov (team-0 gets a late 50) and billed 21 Nov.
    fake.setCosts(
      costs('2026-09-01', '2026-11-22', (day) =>
        day === '2026-11-19' ? [{ day, tag: 'team-0', service: 'Amazon SageMaker', unblended: 50 }] : [],
      ),
    );
    setNow('2026-11-22T09:00:00Z');
    await refreshSources(deps);
    const daily = fake.callsOf('GetCostAndUsage').slice(2);
    expect(daily).toHaveLength(2);
    // Missing day plus the last three again.
    expect(daily.map((c) => c.input.TimePeriod)).toEqual([
      { Start: '2026-11-18', End: '2026-11-22' },
      { Start: '2026-11-18', End: '2026-11-22' },
    ]);
    const after = new Map(
      (await deps.store.spend.totals({ period: { start: '2026-11-01', end: '2026-11-22' } }, 'team')).map((r) => [r.key, r]),
    );
    // 21 days of 5, plus the revision, each counted once.
    expect(after.get('team-0')?.billed).toBe(21 * 5 + 50);
    expect(after.get('team-7')?.billed).toBe(21 * 50);
    const freshness = await deps.store.freshness.list();
    expect(freshness).toEqual([{ source: 'aws', dataThrough: '2026-11-22T00:00:00.000Z', refreshedAt: '2026-11-22T09:00:00.000Z' }]);
  });

  it('follows NextPageToken until the window is complete', async () => {
    const { deps, fake } = await setup({ daysPerPage: 20 });
    await refreshSources(deps);
    const calls = fake.callsOf('GetCostAndUsage');
    expect(calls).toHaveLength(8); // 70 days, 20 a page, for usage and for the other charges
    expect(calls.filter((c) => typeof c.input.NextPageToken === 'string')).toHaveLength(6);
    const total = await deps.store.spend.totals({ period: { start: '2026-09-12', end: '2026-11-21' } }, 'day');
    expect(total).toHaveLength(70);
  });

  it('retries throttling and server errors with backoff', async () => {
    const { deps, fake } = await setup();
    fake.failNext('GetCostAndUsage', 'Throttling', 2);
    fake.failNext('GetCostAndUsage', 'InternalError', 1);
    const [result] = await refreshSources(deps);
    expect(result).toMatchObject({ ok: true });
    // Three failed attempts and the one that worked for usage, then the other charges.
    expect(fake.callsOf('GetCostAndUsage')).toHaveLength(5);
  });

  it('names the missing permission when Cost Explorer denies it, and keeps the data it had', async () => {
    const { deps, fake, setNow } = await setup();
    await refreshSources(deps);
    fake.failNext('GetCostAndUsage', 'AccessDenied');
    setNow('2026-11-22T09:00:00Z');
    const [result] = await refreshSources(deps);
    expect(result!.ok).toBe(false);
    expect(result!.error).toContain('Cost Explorer denied ce:GetCostAndUsage');
    expect(result!.error).toContain('Allow ce:GetCostAndUsage');
    expect(fake.callsOf('GetCostAndUsage')).toHaveLength(3); // access denied is not retried
    expect(await deps.store.freshness.failures()).toEqual([{ source: 'aws', failedAt: '2026-11-22T09:00:00.000Z', error: result!.error }]);
    const total = await deps.store.spend.totals({ period: { start: '2026-11-01', end: '2026-11-21' } }, 'team');
    expect(total.find((r) => r.key === 'team-7')?.billed).toBe(1000);
  });

  it('reads every account of roleArns through its assumed role', async () => {
    const roles = ['arn:aws:iam::111111111111:role/burnrate-read', 'arn:aws:iam::222222222222:role/burnrate-read'];
    const { deps, fake } = await setup(
      {
        costs: [
          { account: '111111111111', day: '2026-11-20', tag: 'team-1', service: 'Amazon SageMaker', unblended: 7 },
          { account: '222222222222', day: '2026-11-20', tag: 'team-2', service: 'Amazon SageMaker', unblended: 11 },
          { account: 'default', day: '2026-11-20', tag: 'team-3', service: 'Amazon SageMaker', unblended: 1000 },
        ],
      },
      { roleArns: roles },
    );
    const [result] = await refreshSources(deps);
    expect(result).toMatchObject({ ok: true });
    const assumed = fake.callsOf('AssumeRole');
    expect(assumed.map((c) => c.input.RoleArn).sort()).toEqual(roles);
    expect(assumed.every((c) => c.accessKeyId === 'AKIDBURNRATETEST')).toBe(true);
    const ce = fake.callsOf('GetCostAndUsage');
    expect(ce.map((c) => c.accessKeyId?.slice(0, 16)).sort()).toEqual([
      'ASIA111111111111',
      'ASIA111111111111',
      'ASIA222222222222',
      'ASIA222222222222',
    ]);
    const byTeam = await deps.store.spend.totals({ period: { start: '2026-11-01', end: '2026-11-21' } }, 'team');
    expect(byTeam.map((r) => [r.key, r.billed])).toEqual([
      ['team-2', 11],
      ['team-1', 7],
    ]);
  });

  it('tells taxes, support, fees, credits and refunds apart by their record type', async () => {
    const day = '2026-11-20';
    const lines = [
      { day, tag: 'team-1', service: 'Amazon EC2', unblended: 100 },
      { day, tag: 'team-1', service: 'Amazon EC2', recordType: 'SavingsPlanCoveredUsage', unblended: 0, amortized: 60 },
      { day, tag: null, service: 'Tax', recordType: 'Tax', unblended: 8 },
      { day, tag: null, service: 'AWS Support (Business)', recordType: 'Support', unblended: 30 },
      {
        day,
        tag: null,
        service: 'Savings Plans for AWS Compute usage',
        recordType: 'SavingsPlanRecurringFee',
        unblended: 50,
        amortized: 0,
      },
      { day, tag: 'team-1', service: 'Amazon EC2', recordType: 'Credit', unblended: -20 },
      { day, tag: 'team-1', service: 'Amazon EC2', recordType: 'Refund', unblended: -5 },
    ];
    const { deps } = await setup({ costs: lines });
    await refreshSources(deps);
    const stored = await deps.store.spend.invoiceLines('2026-11');
    const of = (category: string) => stored.filter((l) => l.chargeCategory === category);
    const billed = (ls: readonly { billed: number }[]) => ls.reduce((s, l) => s + l.billed, 0);
    expect(billed(of('Usage'))).toBe(100);
    expect(of('Usage').reduce((s, l) => s + l.effective, 0)).toBe(160);
    expect(of('Tax').map((l) => [l.billed, l.kind])).toEqual([[8, 'recurring']]);
    // Support and the Savings Plan fee are recurring purchases; credits and refunds one-time credits.
    expect(billed(of('Purchase'))).toBe(30 + 50);
    expect(of('Purchase').every((l) => l.kind === 'recurring')).toBe(true);
    expect(billed(of('Credit'))).toBe(-25);
    expect(of('Credit').every((l) => l.kind === 'one-time')).toBe(true);
    // Everything the fake billed, once.
    expect(billed(stored)).toBe(lines.reduce((s, l) => s + l.unblended, 0));
  });

  it('says when a role cannot be assumed', async () => {
    const { deps, fake } = await setup({}, { roleArns: ['arn:aws:iam::111111111111:role/burnrate-read'] });
    fake.failNext('AssumeRole', 'AccessDenied');
    const [result] = await refreshSources(deps);
    expect(result!.ok).toBe(false);
    expect(result!.error).toContain('sts:AssumeRole');
    expect(result!.error).toContain('arn:aws:iam::111111111111:role/burnrate-read');
  });
});
