import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../../src/inbound/dispatcher.js';
import type { ActionInteraction, Interaction } from '../../../src/ports/interaction.js';
import { demoConfig } from '../../../src/providers/demo/demo-config.js';
import { FakeSlackApi } from '../../fakes/fake-slack-api.js';
import { testDeps, spendRow } from '../../support/deps.js';
import { checkSlackLimits, type SlackBlock } from '../../support/platform-limits.js';
import { blockActionsBody, postSigned, slashCommandBody } from '../../support/slack-request.js';
import { startSlackServer, waitFor } from './slack-harness.js';

type Harness = Awaited<ReturnType<typeof startSlackServer>>;

describe('the Slack app over HTTP (real Bolt, fake Web API)', () => {
  let fake: FakeSlackApi;
  let harness: Harness | undefined;

  beforeEach(async () => {
    fake = await FakeSlackApi.start();
  });
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
    fake.assertNoUnexpectedCalls();
    await fake.close();
  });

  async function start(run: typeof dispatch = dispatch) {
    const { deps } = testDeps(demoConfig(), '2026-11-21T09:00:00Z');
    await deps.store.importBatches([
      {
        scope: { source: 'test', billingPeriods: ['2026-11'] },
        rows: [spendRow('llm-training', '2026-11-20', 1234.5)],
        dataThrough: '2026-11-21T00:00:00Z',
      },
    ]);
    harness = await startSlackServer(deps, fake, run);
    return harness;
  }

  it('acks /burnrate help and /burnrate spend with 200 at once and answers privately at response_url', async () => {
    const h = await start();
    for (const [i, text] of ['help', 'spend'].entries()) {
      const started = Date.now();
      const res = await postSigned(h.url, slashCommandBody({ text, response_url: fake.responseUrl(`r${i}`) }));
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('');
      expect(Date.now() - started).toBeLessThan(1_500);
    }
    await waitFor(() => fake.responses.length === 2, 'two answers at response_url');
    await h.settled();

    const [help, spend] = fake.responses;
    for (const answer of [help, spend]) {
      expect(answer?.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
      expect(typeof answer?.body.text).toBe('string');
      checkSlackLimits(answer?.body.blocks as SlackBlock[]);
    }
    expect(help?.id).toBe('r0');
    expect(help?.body.text).toBe('burnrate commands');
    expect(JSON.stringify(spend?.body.blocks)).toContain('llm-training');
    expect(h.dispatched.map((d) => d.interaction)).toMatchObject([
      { kind: 'command', text: 'help', channel: 'C0DEMOLLMTR', actor: { platform: 'slack', userId: 'U0DEMOADMIN', name: 'admin' } },
      { kind: 'command', text: 'spend' },
    ]);
    expect(fake.calls).toEqual([]); // answers go to response_url, never through the Web API
  });

  it("sends a private answer's chart (spend by day) as a file into the asker's direct messages, which only they see", async () => {
    fake.expect('conversations.open', 'files.getUploadURLExternal', 'files.completeUploadExternal');
    const h = await start();
    await postSigned(h.url, slashCommandBody({ text: 'spend llm-training this-month by day', response_url: fake.responseUrl('r0') }));
    await waitFor(() => fake.callsOf('files.completeUploadExternal').length === 1, 'the chart in the direct messages');
    await h.settled();
    expect(JSON.stringify(fake.responses[0]?.body.blocks)).toContain('Chart: ');
    expect(fake.callsOf('conversations.open')[0]?.args.users).toBe('U0DEMOADMIN');
    expect(fake.callsOf('files.completeUploadExternal')[0]?.args.channel_id).toBe('D0DEMOADMIN');
  });

  it('acknowledges before the work is done: the 200 does not wait for the dispatcher', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const h = await start(async (deps, interaction) => {
      await gate;
      await dispatch(deps, interaction);
    });
    const res = await postSigned(h.url, slashCommandBody({ text: 'help', response_url: fake.responseUrl() }));
    expect(res.status).toBe(200);
    expect(h.dispatched).toHaveLength(1);
    expect(fake.responses).toEqual([]);
    release();
    await h.settled();
    expect(fake.responses).toHaveLength(1);
  });

  it.each([
    ['a tampered body', { tamper: (body: string) => body.replace('help', 'budget%20set%20llm-training%201') }],
    ['a wrong signing secret', { secret: 'not-the-secret' }],
    ['a stale timestamp (over 5 minutes old)', { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 }],
    ['no signature at all', { headers: { 'x-slack-signature': '' } }],
  ])('rejects %s with 401 and runs nothing', async (_name, options) => {
    const h = await start();
    const res = await postSigned(h.url, slashCommandBody({ text: 'help', response_url: fake.responseUrl() }), options);
    expect(res.status).toBe(401);
    await new Promise((r) => setTimeout(r, 200));
    expect(h.dispatched).toEqual([]);
    expect(fake.calls).toEqual([]);
    expect(fake.responses).toEqual([]);
  });

  it('acks and drops a Slack retry (x-slack-retry-num), so nothing runs twice', async () => {
    const h = await start();
    const body = slashCommandBody({ text: 'help', response_url: fake.responseUrl() });
    const res = await postSigned(h.url, body, { headers: { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' } });
    expect(res.status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(h.dispatched).toEqual([]);
    expect(fake.calls).toEqual([]);
    expect(fake.responses).toEqual([]);
  });

  it('answers an unknown button privately, and never with a stack trace', async () => {
    const h = await start();
    const res = await postSigned(
      h.url,
      blockActionsBody({ actionId: 'instance.teleport', value: 'x', response_url: fake.responseUrl('click') }),
    );
    expect(res.status).toBe(200);
    await waitFor(() => fake.responses.length === 1, 'the private answer');
    const answer = fake.responses[0]!;
    expect(answer.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(answer.body.text).toContain('instance.teleport');
    expect(JSON.stringify(answer.body)).not.toMatch(/\bat .*\.(ts|js):\d+/);
  });

  it('turns a click into an ActionInteraction whose update and thread replies address the clicked message', async () => {
    const h = await start(async (_deps, interaction: Interaction) => {
      const click = interaction as ActionInteraction;
      await click.reply.update({ summary: 'Acknowledged by carol', blocks: [{ type: 'text', text: 'Acknowledged by **carol**' }] });
      await click.reply.thread({ summary: 'carol acknowledged this alert', blocks: [] });
    });
    fake.expect('chat.update', 'chat.postMessage');
    const res = await postSigned(
      h.url,
      blockActionsBody({
        actionId: 'budget.ack',
        value: 'budget.forecast:llm-training:2026-11:100',
        channel: 'C0DEMOLLMTR',
        messageTs: '1700000000.000042',
        response_url: fake.responseUrl(),
      }),
    );
    expect(res.status).toBe(200);
    await waitFor(() => h.dispatched.length === 1, 'the dispatch');
    await h.settled();

    expect(h.dispatched[0]?.interaction).toMatchObject({
      kind: 'action',
      action: 'budget.ack',
      value: 'budget.forecast:llm-training:2026-11:100',
      message: { target: 'slack:C0DEMOLLMTR', ref: '1700000000.000042' },
      actor: { platform: 'slack', userId: 'U0DEMOCAROL', name: 'carol' },
    });
    expect(fake.calls.map((c) => [c.method, c.args.channel, c.args.ts ?? c.args.thread_ts, c.authorized])).toEqual([
      ['chat.update', 'C0DEMOLLMTR', '1700000000.000042', true],
      ['chat.postMessage', 'C0DEMOLLMTR', '1700000000.000042', true],
    ]);
    expect(fake.callsOf('chat.postMessage')[0]?.args.thread_ts).toBe('1700000000.000042');
    fake.assertNoUnexpectedCalls();
  });

  it('answers a payload it cannot read with a short private apology', async () => {
    const h = await start();
    const res = await postSigned(h.url, slashCommandBody({ text: 'help', user_id: '', response_url: fake.responseUrl() }));
    expect(res.status).toBe(200);
    await waitFor(() => fake.responses.length === 1, 'the apology');
    expect(fake.responses[0]?.body.text).toBe('burnrate could not read that request from Slack.');
    expect(h.dispatched).toEqual([]);
  });

  it('shares the server with the health probes', async () => {
    const h = await start();
    expect((await fetch(`${h.base}/healthz`)).status).toBe(200);
    expect((await fetch(`${h.base}/slack/other`, { method: 'POST' })).status).toBe(404);
  });
});
