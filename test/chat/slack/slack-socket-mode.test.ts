import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../../src/inbound/dispatcher.js';
import { createSlackApp } from '../../../src/chat/slack/slack-app.js';
import { daysOf } from '../../../src/domain/period.js';
import { runBudgetCheck } from '../../../src/jobs/budget-check.js';
import { deliverOutbox } from '../../../src/outbox/deliver-outbox.js';
import { demoConfig } from '../../../src/providers/demo/demo-config.js';
import { FakeSlackApi } from '../../fakes/fake-slack-api.js';
import { FakeSlackSocket } from '../../fakes/fake-slack-socket.js';
import { spendRow, testDeps } from '../../support/deps.js';
import { checkSlackLimits, type SlackBlock } from '../../support/platform-limits.js';
import { appHomeOpenedPayload, blockActionsPayload, budgetSubmissionPayload, slashCommandPayload } from '../../support/slack-payloads.js';
import { slackEnv, startSlackSocket, waitFor } from './slack-harness.js';
import { BOB } from '../../support/demo-org.js';
import { mlTeam } from '../../support/ml-team.js';

const APP_TOKEN = 'xapp-1-A0BURNRATE-0000-socket-secret';
type Deps = ReturnType<typeof testDeps>['deps'];
type Harness = Awaited<ReturnType<typeof startSlackSocket>>;

/** The demo organisation with some November spend, at 21 Nov 2026. */
async function demoDeps(): Promise<Deps> {
  const { deps } = testDeps(demoConfig(), '2026-11-21T09:00:00Z');
  await deps.store.importBatches([
    {
      scope: { source: 'test', billingPeriods: ['2026-11'] },
      rows: [spendRow('llm-training', '2026-11-20', 1234.5), spendRow('ml-research', '2026-11-20', 51_000)],
      dataThrough: '2026-11-21T00:00:00Z',
    },
  ]);
  return deps;
}

describe('Socket Mode (real Bolt and @slack/socket-mode, fake Slack on 127.0.0.1)', () => {
  let fake: FakeSlackApi;
  let socket: FakeSlackSocket;
  let harness: Harness | undefined;

  beforeEach(async () => {
    fake = await FakeSlackApi.start();
    socket = await FakeSlackSocket.start(fake, { appToken: APP_TOKEN });
  });
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
    await socket.close();
    fake.assertNoUnexpectedCalls();
    fake.assertDone();
    await fake.close();
  });

  async function start(deps?: Deps, run: typeof dispatch = dispatch): Promise<Harness> {
    harness = await startSlackSocket(deps ?? (await demoDeps()), fake, APP_TOKEN, run);
    return harness;
  }

  it('is chosen by SLACK_APP_TOKEN, needs no route on our server nor a signing secret, and says so', async () => {
    const { deps } = testDeps({});
    const slack = createSlackApp(deps, { env: slackEnv(fake, { SLACK_APP_TOKEN: APP_TOKEN, SLACK_SIGNING_SECRET: '' }), dispatch });
    expect(slack.mode).toBe('socket');
    expect([...slack.routes.keys()]).toEqual([]);
    expect(slack.describe()).toContain('no public URL needed');
    expect(fake.calls).toEqual([]); // building the app calls nothing
  });

  it('opens its connection at SLACK_API_URL with the app-level token and is ready once Slack says hello', async () => {
    await start();
    expect(fake.calls.map((c) => [c.method, c.authorized])).toEqual([['apps.connections.open', true]]); // no auth.test
    expect(socket.connections).toBe(1);
    expect(socket.openConnections).toBe(1);
  });

  it('acks each slash command in its envelope at once and answers privately at response_url', async () => {
    const h = await start();
    const commands = ['help', 'spend', 'budget llm-training', 'teleport llm-training'];
    const envelopes = commands.map((text, i) =>
      socket.slashCommand(slashCommandPayload({ text, response_url: fake.responseUrl(`r${i}`) })),
    );
    for (const id of envelopes) {
      const ack = await socket.waitForAck(id);
      expect(ack.ms).toBeLessThan(1_500);
      expect(ack.payload ?? {}).toEqual({}); // an empty ack: the answer goes to response_url
    }
    await waitFor(() => fake.responses.length === commands.length, 'an answer per command');
    await h.settled();

    const answers = Object.fromEntries(fake.responses.map((r) => [r.id, r.body]));
    for (const body of Object.values(answers)) {
      expect(body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
      checkSlackLimits(body.blocks as SlackBlock[]);
    }
    expect(answers.r0?.text).toBe('burnrate commands');
    expect(JSON.stringify(answers.r1?.blocks)).toContain('llm-training');
    expect(JSON.stringify(answers.r2?.blocks)).toContain('LLM Training');
    expect(JSON.stringify(answers.r3)).toContain('Unknown command \\"teleport\\"');
    expect(JSON.stringify(answers.r3)).toContain('/burnrate spend'); // the usage, with examples
    expect(h.dispatched.map((d) => d.interaction)).toMatchObject(
      commands.map((text) => ({ kind: 'command', text, actor: { platform: 'slack', userId: 'U0DEMOADMIN' } })),
    );
    expect(fake.calls.filter((c) => c.method !== 'apps.connections.open')).toEqual([]);
    expect(socket.stray).toEqual([]);
  });

  it('acks a budget alert button in its envelope, edits the alert through the Web API, and tells a second clicker who was first', async () => {
    const { deps } = testDeps({
      teams: [mlTeam({ slack: { channel: 'C0ML' }, owners: ['U0OWNER'] })],
    });
    await deps.store.importBatches([
      {
        scope: { source: 'test', billingPeriods: ['2026-11'] },
        rows: daysOf({ start: '2026-11-01', end: '2026-11-11' }).map((d) => spendRow('ml', d, 55)),
        dataThrough: '2026-11-11T00:00:00Z',
      },
    ]);
    // The alert and its chart (a file in its thread).
    fake.expect('chat.postMessage', 'chat.update', 'files.getUploadURLExternal', 'files.completeUploadExternal');
    const h = await start(deps);
    await runBudgetCheck(deps);
    expect(await deliverOutbox(deps)).toEqual({ sent: 2, retried: 0, failed: 0 });
    const alert = fake.callsOf('chat.postMessage')[0]!;
    const ack = alert.args.blocks
      .flatMap((b: { elements?: { action_id?: string; value?: string }[] }) => b.elements ?? [])
      .find((e: { action_id?: string }) => e.action_id === 'budget.ack');
    const ts = String(alert.answer?.ts);
    const click = (id: string) =>
      socket.interactive(
        blockActionsPayload({
          actionId: 'budget.ack',
          value: ack.value,
          channel: 'C0ML',
          messageTs: ts,
          user_id: 'U0OWNER',
          response_url: fake.responseUrl(id),
        }),
      );

    const first = await socket.waitForAck(click('first'));
    expect(first.payload ?? {}).toEqual({});
    await waitFor(() => fake.callsOf('chat.update').length === 1, 'the alert to be edited');
    const update = fake.callsOf('chat.update')[0]!;
    expect(update).toMatchObject({ authorized: true, args: { channel: 'C0ML', ts } });
    expect(JSON.stringify(update.args.blocks)).toMatch(/Acknowledged [^"]+ UTC> by <@U0OWNER>/);

    await socket.waitForAck(click('second'));
    await waitFor(() => fake.responses.length === 1, 'the private answer');
    await h.settled();
    expect(fake.responses[0]).toMatchObject({ id: 'second', body: { response_type: 'ephemeral' } });
    expect(fake.responses[0]?.body.text).toContain('Already acknowledged by U0OWNER');
    expect(fake.callsOf('chat.update')).toHaveLength(1);
    expect((await deps.store.audit.list()).map((a) => [a.userId, a.action, a.result])).toContainEqual(['U0OWNER', 'budget.ack', 'ok']);
  });

  it('returns field errors of the budget modal in the ack payload and saves nothing; a valid submission saves and refreshes the home', async () => {
    const deps = await demoDeps();
    fake.expect('views.publish');
    await start(deps);

    const wrong = await socket.waitForAck(socket.interactive(budgetSubmissionPayload(BOB, { monthly: 'lots', thresholds: '50, x' })));
    expect(wrong.payload).toEqual({
      response_action: 'errors',
      errors: {
        monthly: '"lots" is not an amount: write 50000, 50k or 1.2m',
        thresholds: 'Write percentages between 1 and 1000, e.g. 50, 80, 100.',
      },
    });
    expect(await deps.store.budgets.list()).toEqual([]);

    const refused = await socket.waitForAck(socket.interactive(budgetSubmissionPayload('U0DEMOALICE', { monthly: '10' })));
    expect(refused.payload).toEqual({
      response_action: 'errors',
      errors: { monthly: 'Only approvers of ml-research can change its budget.' },
    });

    const saved = await socket.waitForAck(socket.interactive(budgetSubmissionPayload(BOB, { monthly: '75k', thresholds: '60, 90, 100' })));
    expect(saved.payload ?? {}).toEqual({}); // closes the modal
    expect((await deps.store.budgets.list()).map((b) => [b.cadence, b.amount, b.thresholds])).toEqual([['monthly', 75000, [60, 90, 100]]]);
    await waitFor(() => fake.callsOf('views.publish').length === 1, 'home refresh');
    expect(JSON.stringify(fake.callsOf('views.publish')[0]!.args.view)).toContain('$75,000.00 monthly');
  });

  it('publishes the App Home on app_home_opened (first delivery: retry_attempt 0) and drops a redelivery', async () => {
    fake.expect('views.publish');
    await start();
    const first = socket.event(appHomeOpenedPayload(BOB));
    expect((await socket.waitForAck(first)).payload ?? {}).toEqual({});
    await waitFor(() => fake.callsOf('views.publish').length === 1, 'views.publish');
    const { args } = fake.callsOf('views.publish')[0]!;
    expect(args.user_id).toBe(BOB);
    checkSlackLimits(args.view.blocks as SlackBlock[]);
    expect(JSON.stringify(args.view.blocks)).toContain('ML Research');

    // Slack saw no ack in time and sends the same event again: acked, not applied twice.
    const retry = socket.redeliver(first, 'timeout');
    expect(socket.envelopes.at(-1)).toMatchObject({
      envelope_id: retry,
      retry_attempt: 1,
      retry_reason: 'timeout',
      payload: { event_id: `Ev${BOB}` },
    });
    await socket.waitForAck(retry);
    await new Promise((r) => setTimeout(r, 300));
    expect(fake.callsOf('views.publish')).toHaveLength(1);
  });

  it('reconnects when Slack asks (disconnect: refresh_requested), finishing work in flight once and losing none', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const h = await start(undefined, async (deps, interaction) => {
      if (interaction.kind === 'command' && interaction.text === 'spend') await gate;
      await dispatch(deps, interaction);
    });
    const slow = socket.slashCommand(slashCommandPayload({ text: 'spend', response_url: fake.responseUrl('before') }));
    expect((await socket.waitForAck(slow)).connection).toBe(1);

    socket.disconnect('refresh_requested');
    await socket.waitForConnections(2, 15_000); // the client waits 5 s before reconnecting
    expect(fake.callsOf('apps.connections.open')).toHaveLength(2);
    expect(socket.openConnections).toBe(1);

    release();
    const after = socket.slashCommand(slashCommandPayload({ text: 'help', response_url: fake.responseUrl('after') }));
    expect((await socket.waitForAck(after)).connection).toBe(2);
    await waitFor(() => fake.responses.length === 2, 'both answers');
    await h.settled();
    await new Promise((r) => setTimeout(r, 200));
    expect(fake.responses.map((r) => r.id).sort()).toEqual(['after', 'before']);
    expect(h.dispatched.map((d) => d.interaction)).toMatchObject([{ text: 'spend' }, { text: 'help' }]);
    expect(socket.acks.map((a) => a.envelopeId)).toEqual([slow, after]);
  }, 30_000);

  it('survives a Slack outage while reconnecting: keeps trying apps.connections.open until Slack is back', async () => {
    const h = await start();
    fake.failNext('apps.connections.open', { status: 503 }, 3);
    socket.disconnect('refresh_requested');
    await socket.waitForConnections(2, 25_000);
    expect(fake.callsOf('apps.connections.open')).toHaveLength(5); // the first, three failures, the one that worked
    const id = socket.slashCommand(slashCommandPayload({ text: 'help', response_url: fake.responseUrl('back') }));
    await socket.waitForAck(id);
    await waitFor(() => fake.responses.length === 1, 'the answer');
    await h.settled();
    expect(fake.responses[0]?.body.text).toBe('burnrate commands');
  }, 40_000);

  it.each([
    ['a wrong or revoked token', 'xapp-1-A0BURNRATE-0000-not-the-token', null, 'invalid_auth'],
    // Slack's client gives up by itself on invalid_auth, but would retry this one forever.
    ['a token without connections:write', APP_TOKEN, 'missing_scope', 'missing_scope'],
  ])(
    'fails start at once with a clear error, without the token, for %s',
    async (_name, token, injected, code) => {
      const { deps } = testDeps({});
      if (injected) fake.failNext('apps.connections.open', { error: injected });
      const slack = createSlackApp(deps, { env: slackEnv(fake, { SLACK_APP_TOKEN: token }), dispatch });
      const started = Date.now();
      const error = await slack.start().then(
        () => null,
        (e: Error & { code?: string; hint?: string }) => e,
      );
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(error).toMatchObject({ code: 'burnrate_slack_connect_failed' });
      expect(error?.message).toContain(code);
      expect(error?.hint).toContain('connections:write');
      expect(`${error?.message}${error?.hint}`).not.toContain(token);
      await new Promise((r) => setTimeout(r, 6_000)); // past the client's first retry delay
      expect(fake.callsOf('apps.connections.open')).toHaveLength(1); // nothing retries a refused token
      expect(socket.connections).toBe(0);
      await slack.stop().catch(() => {});
    },
    15_000,
  );
});
