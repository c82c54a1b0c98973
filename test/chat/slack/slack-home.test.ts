import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demoConfig } from '../../../src/providers/demo/demo-config.js';
import { buildGpuDeps } from '../../../src/providers/gpu-registry.js';
import { FakeSlackApi } from '../../fakes/fake-slack-api.js';
import { spendRow, testDeps } from '../../support/deps.js';
import { checkSlackLimits, type SlackBlock } from '../../support/platform-limits.js';
import { appHomeOpenedPayload, budgetSubmissionPayload } from '../../support/slack-payloads.js';
import { blockActionsBody, formPayload, postSigned } from '../../support/slack-request.js';
import { startSlackServer, waitFor } from './slack-harness.js';
import { ALICE, BOB } from '../../support/demo-org.js';

const homeOpenedBody = (user: string) => JSON.stringify(appHomeOpenedPayload(user));
const submitBody = (...args: Parameters<typeof budgetSubmissionPayload>) => formPayload(budgetSubmissionPayload(...args));

describe('App Home and the budget modal (real Bolt, fake Web API)', () => {
  let fake: FakeSlackApi;
  let harness: Awaited<ReturnType<typeof startSlackServer>>;
  let deps: ReturnType<typeof testDeps>['deps'];

  beforeEach(async () => {
    fake = await FakeSlackApi.start({ expect: ['views.publish', 'views.open'] });
    deps = testDeps(demoConfig(), '2026-11-21T09:00:00Z').deps;
    await deps.store.importBatches([
      {
        scope: { source: 'test', billingPeriods: ['2026-11'] },
        rows: [spendRow('ml-research', '2026-11-20', 51_000)],
        dataThrough: '2026-11-21T00:00:00Z',
      },
    ]);
    harness = await startSlackServer(deps, fake);
  });
  afterEach(async () => {
    await harness.close();
    fake.assertNoUnexpectedCalls();
    await fake.close();
  });

  it('publishes each user a dashboard of their teams, with an edit button for approvers', async () => {
    expect((await postSigned(harness.url, homeOpenedBody(BOB), { headers: { 'content-type': 'application/json' } })).status).toBe(200);
    await waitFor(() => fake.callsOf('views.publish').length === 1, 'views.publish');
    const { args } = fake.callsOf('views.publish')[0]!;
    expect(args.user_id).toBe(BOB);
    const view = typeof args.view === 'string' ? JSON.parse(args.view) : args.view;
    checkSlackLimits(view.blocks as SlackBlock[]);
    const text = JSON.stringify(view.blocks);
    expect(text).toContain('ML Research');
    expect(text).toContain('$51,000.00');
    // Each team's budget as section fields, each value whole in its field: nothing to break mid-word on a wide screen.
    const ml = (view.blocks as SlackBlock[]).findIndex((b) => JSON.stringify(b).includes('*ML Research*'));
    const fields = ((view.blocks as SlackBlock[])[ml + 1] as { fields?: { text: string }[] }).fields!.map((f) => f.text);
    expect(fields[0]).toMatch(/^\*Budget\*\n\$[\d,]+\.\d\d monthly$/);
    expect(fields.map((f) => f.split('\n')[0])).toEqual(['*Budget*', '*Spent*', '*Forecast*', '*Alerts*']);
    expect(text).toContain('Edit budget of ml-research');
    expect(text).not.toContain('LLM Training');

    await postSigned(harness.url, homeOpenedBody(ALICE), { headers: { 'content-type': 'application/json' } });
    await waitFor(() => fake.callsOf('views.publish').length === 2, 'second views.publish');
    expect(JSON.stringify(fake.callsOf('views.publish')[1]!.args.view)).not.toContain('Edit budget');
  });

  it("shows the last 30 days' GPU waste of the user's teams where GPU metrics are configured", async () => {
    deps.gpu = buildGpuDeps(deps.config)!;
    await postSigned(harness.url, homeOpenedBody(BOB), { headers: { 'content-type': 'application/json' } });
    await waitFor(() => fake.callsOf('views.publish').length === 1, 'views.publish');
    const view = fake.callsOf('views.publish')[0]!.args.view;
    const blocks = (typeof view === 'string' ? JSON.parse(view) : view).blocks as SlackBlock[];
    checkSlackLimits(blocks);
    const text = JSON.stringify(blocks);
    expect(text).toContain('GPU waste, last 30 days');
    expect(text).toMatch(/ML Research.*\$[\d,.]+ \(\d+%\)/);
    expect(text).not.toContain('LLM Training');
  });

  it('opens the budget modal for an approver and a refusal for anyone else', async () => {
    await postSigned(
      harness.url,
      blockActionsBody({ actionId: 'budget.edit', value: 'ml-research', user_id: BOB, response_url: fake.responseUrl() }),
    );
    await postSigned(
      harness.url,
      blockActionsBody({ actionId: 'budget.edit', value: 'ml-research', user_id: ALICE, response_url: fake.responseUrl() }),
    );
    await waitFor(() => fake.callsOf('views.open').length === 2, 'two views.open');
    const [approver, other] = fake.callsOf('views.open').map((c) => JSON.stringify(c.args.view));
    expect(approver).toContain('budget_edit');
    expect(approver).toContain('"initial_value":"60000"');
    expect(other).toContain('Only approvers');
  });

  it('shows field errors in the modal and saves nothing', async () => {
    const response = await postSigned(harness.url, submitBody(BOB, { monthly: 'lots', thresholds: '50, x' }));
    expect(await response.json()).toEqual({
      response_action: 'errors',
      errors: {
        monthly: '"lots" is not an amount: write 50000, 50k or 1.2m',
        thresholds: 'Write percentages between 1 and 1000, e.g. 50, 80, 100.',
      },
    });
    expect(await deps.store.budgets.list()).toEqual([]);
  });

  it('refuses a non-approver inside the modal, audited', async () => {
    const response = await postSigned(harness.url, submitBody(ALICE, { monthly: '10' }));
    expect(await response.json()).toEqual({
      response_action: 'errors',
      errors: { monthly: 'Only approvers of ml-research can change its budget.' },
    });
    expect((await deps.store.audit.list()).map((a) => [a.userId, a.action, a.result])).toEqual([[ALICE, 'budget set', 'refused']]);
  });

  it("saves an approver's budget and thresholds, audits it and refreshes the home", async () => {
    const response = await postSigned(harness.url, submitBody(BOB, { monthly: '75k', weekly: '20000', thresholds: '60, 90, 100' }));
    expect(response.status).toBe(200);
    expect((await deps.store.budgets.list()).map((b) => [b.cadence, b.amount, b.thresholds])).toEqual([
      ['monthly', 75000, [60, 90, 100]],
      ['weekly', 20000, [60, 90, 100]],
    ]);
    expect((await deps.store.audit.list()).every((a) => a.result === 'ok' && a.userId === BOB)).toBe(true);
    await waitFor(() => fake.callsOf('views.publish').length === 1, 'home refresh');
    expect(JSON.stringify(fake.callsOf('views.publish')[0]!.args.view)).toContain('$75,000.00 monthly');
  });
});
