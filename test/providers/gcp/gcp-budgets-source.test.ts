import { describe, expect, it } from 'vitest';
import { refreshSources } from '../../../src/jobs/refresh-sources.js';
import { FakeGoogleCloud } from '../../fakes/fake-google-cloud.js';
import { testDeps } from '../../support/deps.js';
import { fakeLifecycle } from '../../support/fake-lifecycle.js';
import { GCP_TABLE, useGoogleFake } from './gcp-test-sources.js';
import { demoTeams } from '../../support/demo-org.js';

const ACCOUNT = '012345-6789AB-CDEF01';

function budget(id: string, displayName: string, units: string, extra: Record<string, unknown> = {}) {
  return {
    name: `billingAccounts/${ACCOUNT}/budgets/${id}`,
    displayName,
    amount: { specifiedAmount: { currencyCode: 'EUR', units, nanos: 500_000_000 } },
    thresholdRules: [
      { thresholdPercent: 0.5, spendBasis: 'CURRENT_SPEND' },
      { thresholdPercent: 0.9, spendBasis: 'CURRENT_SPEND' },
      { thresholdPercent: 1, spendBasis: 'FORECASTED_SPEND' },
    ],
    etag: 'e1',
    ...extra,
  };
}

const BUDGETS = [
  budget('b1', 'team llm-training', '30000'),
  budget('b2', 'Research GPUs', '12000', {
    budgetFilter: {
      projects: ['projects/123'],
      labels: { team: ['research'] },
      calendarPeriod: 'MONTH',
      creditTypesTreatment: 'INCLUDE_ALL_CREDITS',
    },
  }),
  budget('b3', 'Everything', '99000', { budgetFilter: { calendarPeriod: 'YEAR' } }),
  {
    name: `billingAccounts/${ACCOUNT}/budgets/b4`,
    displayName: 'Same as last month',
    amount: { lastPeriodAmount: {} },
    thresholdRules: [{ thresholdPercent: 1 }],
  },
];

const CONFIG = {
  teams: demoTeams(),
  sources: [
    {
      type: 'gcp',
      project: 'acme-billing',
      table: GCP_TABLE,
      billingAccount: ACCOUNT,
      maxAttempts: 2,
      budgets: { teamPattern: '^team (?<team>.+)$' },
    },
  ],
};

const fakes = fakeLifecycle<FakeGoogleCloud>();

async function setup() {
  const fake = fakes.track(await FakeGoogleCloud.start({ table: GCP_TABLE, budgets: { [ACCOUNT]: BUDGETS }, budgetsPerPage: 3 }));
  const t = testDeps(CONFIG);
  useGoogleFake(t.deps, fake);
  t.deps.sources = []; // budgets only
  return { ...t, fake };
}

describe('Google Cloud budgets source', () => {
  it('lists every page of budgets over HTTP/JSON, with amounts, threshold rules and label filters mapped to teams', async () => {
    const { deps, fake } = await setup();
    expect(await refreshSources(deps)).toMatchObject([{ source: 'gcp:budgets', ok: true, budgets: 3 }]);
    const calls = fake.callsOf('budgets.list');
    expect(calls).toHaveLength(2);
    expect(calls[1]!.query.get('pageToken')).toBe('3');
    const budgets = new Map((await deps.store.cloudBudgets.list()).map((b) => [b.name, b]));
    expect(budgets.get('team llm-training')).toMatchObject({
      origin: 'gcp',
      id: `billingAccounts/${ACCOUNT}/budgets/b1`,
      team: 'llm-training',
      mappedBy: 'name',
      period: 'monthly',
      amount: 30000.5,
      currency: 'EUR',
      actual: null,
      thresholds: [50, 90, 100],
      notifications: [
        { threshold: 50, on: 'actual' },
        { threshold: 90, on: 'actual' },
        { threshold: 100, on: 'forecast' },
      ],
    });
    expect(budgets.get('Research GPUs')).toMatchObject({ team: 'ml-research', mappedBy: 'filter', amount: 12000.5 });
    expect(budgets.get('Everything')).toMatchObject({ team: null, period: 'annually' });
    // A "last period's amount" budget has no fixed amount to compare with.
    expect(budgets.has('Same as last month')).toBe(false);
  });

  it('retries throttling, then names billing.budgets.list when it is denied', async () => {
    const { deps, fake } = await setup();
    fake.failNext('budgets.list', 'RATE_LIMITED');
    expect((await refreshSources(deps))[0]).toMatchObject({ ok: true });
    fake.failNext('budgets.list', 'PERMISSION_DENIED');
    const [denied] = await refreshSources(deps);
    expect(denied!.ok).toBe(false);
    expect(denied!.error).toContain('Cloud Billing Budgets denied billing.budgets.list on billing account 012345-6789AB-CDEF01');
    expect(denied!.error).toContain('roles/billing.viewer');
  });

  it('says the credentials are wrong when Google rejects the token', async () => {
    const fake = fakes.track(await FakeGoogleCloud.start({ table: GCP_TABLE, budgets: { [ACCOUNT]: BUDGETS } }));
    const t = testDeps(CONFIG);
    useGoogleFake(t.deps, fake, 'ya29.revoked');
    t.deps.sources = [];
    const [result] = await refreshSources(t.deps);
    expect(result!.ok).toBe(false);
    expect(result!.error).toContain('could not authenticate burnrate');
    expect(result!.error).toContain('GOOGLE_APPLICATION_CREDENTIALS');
  });
});
