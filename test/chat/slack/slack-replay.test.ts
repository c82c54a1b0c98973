import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../../src/inbound/dispatcher.js';
import { createSlackApp } from '../../../src/chat/slack/slack-app.js';
import { startHttpServer } from '../../../src/http/server.js';
import { demoConfig } from '../../../src/providers/demo/demo-config.js';
import { FakeSlackApi } from '../../fakes/fake-slack-api.js';
import { testDeps } from '../../support/deps.js';
import { blockActionsBody, postSigned, slashCommandBody } from '../../support/slack-request.js';
import { recordDispatch, slackChat, slackEnv, waitFor } from './slack-harness.js';

/** The app's clock runs a day behind the real one, so a check on Date.now() would refuse everything. */
const DAY = 24 * 3600_000;
const MINUTE = 60_000;

describe('Slack request freshness and repeated deliveries over HTTP (real Bolt, injected clock)', () => {
  let fake: FakeSlackApi;
  let server: Server | undefined;
  let nowMs: number;

  beforeEach(async () => {
    fake = await FakeSlackApi.start();
    nowMs = Date.now() - DAY;
  });
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
    fake.assertNoUnexpectedCalls();
    await fake.close();
  });

  async function start() {
    const { deps } = testDeps(demoConfig());
    deps.chat = [slackChat(fake, deps)];
    const recorded = recordDispatch(dispatch);
    const slack = createSlackApp(deps, { env: slackEnv(fake), dispatch: recorded.dispatch, now: () => nowMs });
    server = await startHttpServer({
      host: '127.0.0.1',
      port: 0,
      routes: slack.routes,
      health: { alive: () => true, ready: async () => ({ ok: true, checks: {} }) },
    });
    return { ...recorded, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events` };
  }

  const at = (offsetMs: number) => ({ timestamp: Math.floor((nowMs + offsetMs) / 1000) });
  /** An unknown button: the real dispatcher answers it privately at response_url, once per run. */
  const click = (id: string) => blockActionsBody({ actionId: 'instance.teleport', value: 'x', response_url: fake.responseUrl(id) });
  const settle = () => new Promise((r) => setTimeout(r, 300));

  it.each([
    ['6 minutes ahead', 6 * MINUTE],
    ['a year ahead', 365 * DAY],
    ['6 minutes old', -6 * MINUTE],
    ['a year old', -365 * DAY],
  ])('refuses a correctly signed request whose timestamp is %s with 401, and runs nothing', async (_name, offset) => {
    const h = await start();
    const res = await postSigned(h.url, slashCommandBody({ text: 'help', response_url: fake.responseUrl() }), at(offset));
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toBe('x-slack-request-timestamp is more than 5 minutes from now');
    await settle();
    expect(h.dispatched).toEqual([]);
    expect(fake.responses).toEqual([]);
  });

  it('accepts timestamps up to 5 minutes either side of the injected clock, not of the real time', async () => {
    const h = await start();
    for (const [i, offset] of [-4 * MINUTE, 0, 4 * MINUTE].entries()) {
      expect(
        (await postSigned(h.url, slashCommandBody({ text: 'help', response_url: fake.responseUrl(`ok${i}`) }), at(offset))).status,
      ).toBe(200);
    }
    // Signed with the real time, a day ahead of this app's clock.
    expect((await postSigned(h.url, slashCommandBody({ text: 'help', response_url: fake.responseUrl() }))).status).toBe(401);
    await waitFor(() => fake.responses.length === 3, 'three answers');
    expect(fake.responses.map((r) => r.id).sort()).toEqual(['ok0', 'ok1', 'ok2']);
  });

  it('runs a replayed slash command (same signed request, same trigger_id) once, and acks both', async () => {
    const h = await start();
    const body = slashCommandBody({ text: 'help', response_url: fake.responseUrl('once') });
    const first = await postSigned(h.url, body, at(0));
    nowMs += 2 * MINUTE;
    const replay = await postSigned(h.url, body, at(-2 * MINUTE)); // the very same bytes and signature
    expect([first.status, replay.status]).toEqual([200, 200]);
    await waitFor(() => fake.responses.length === 1, 'the answer');
    await settle();
    await h.settled();
    expect(fake.responses.map((r) => r.id)).toEqual(['once']);
    expect(h.dispatched).toHaveLength(1);
  });

  it('runs a double-delivered button click (same trigger_id, action_ts, user and action) once, even re-signed', async () => {
    const h = await start();
    const body = click('clicked');
    const statuses = await Promise.all([
      postSigned(h.url, body, at(0)),
      postSigned(h.url, body, at(30_000)),
      postSigned(h.url, body, at(-30_000)),
    ]).then((all) => all.map((r) => r.status));
    expect(statuses).toEqual([200, 200, 200]);
    await waitFor(() => fake.responses.length === 1, 'the private answer');
    await settle();
    await h.settled();
    expect(fake.responses.map((r) => r.id)).toEqual(['clicked']);
    expect(h.dispatched).toHaveLength(1);

    // A second real click has its own trigger_id: it runs.
    expect((await postSigned(h.url, click('clicked-again'), at(0))).status).toBe(200);
    await waitFor(() => fake.responses.length === 2, 'the second answer');
    expect(h.dispatched).toHaveLength(2);
  });

  it('runs the same delivery again once its keys have expired (10 minutes, twice the timestamp tolerance)', async () => {
    const h = await start();
    const body = slashCommandBody({ text: 'help', response_url: fake.responseUrl() });
    expect((await postSigned(h.url, body, at(0))).status).toBe(200);
    nowMs += 9 * MINUTE;
    expect((await postSigned(h.url, body, at(0))).status).toBe(200); // still remembered: dropped
    nowMs += 2 * MINUTE;
    expect((await postSigned(h.url, body, at(0))).status).toBe(200); // forgotten: runs
    await waitFor(() => fake.responses.length === 2, 'two answers');
    await settle();
    expect(h.dispatched).toHaveLength(2);
  });
});
