import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { demoConfig } from '../../../src/providers/demo/demo-config.js';
import { MAX_SLACK_BODY_BYTES } from '../../../src/chat/slack/slack-http.js';
import { FakeSlackApi } from '../../fakes/fake-slack-api.js';
import { testDeps } from '../../support/deps.js';
import { postSigned, slashCommandBody } from '../../support/slack-request.js';
import { startSlackServer, waitFor } from './slack-harness.js';

type Harness = Awaited<ReturnType<typeof startSlackServer>>;

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';
const user = { id: 'U0DEMOCAROL' };
const payload = (value: unknown) => `payload=${encodeURIComponent(JSON.stringify(value))}`;

/** Correctly signed, badly formed: each must be answered 400 and run nothing. */
const HOSTILE: [string, string, string][] = [
  ['payload=null', FORM, 'payload=null'],
  ['payload=[]', FORM, 'payload=[]'],
  ['payload={}', FORM, 'payload={}'],
  ['payload=%7B (not JSON)', FORM, 'payload=%7B'],
  ['payload=42', FORM, 'payload=42'],
  ['an empty form body', FORM, ''],
  ['JSON null', JSON_TYPE, 'null'],
  ['JSON []', JSON_TYPE, '[]'],
  ['a JSON number', JSON_TYPE, '42'],
  ['a JSON string', JSON_TYPE, '"hello"'],
  ['an empty JSON body', JSON_TYPE, ''],
  ['JSON that does not parse', JSON_TYPE, '{"type":'],
  ['a repeated form field', FORM, 'command=/burnrate&command=/burnrate&text=help'],
  ['a command that is not a slash command', FORM, 'command=burnrate&text=help'],
  ['block_actions without actions', FORM, payload({ type: 'block_actions', user })],
  ['block_actions with a null action', FORM, payload({ type: 'block_actions', user, actions: [null] })],
  ['block_actions with a null user', FORM, payload({ type: 'block_actions', user: null, actions: [{ action_id: 'budget.ack' }] })],
  [
    'block_actions with a null channel',
    FORM,
    payload({ type: 'block_actions', user, channel: null, actions: [{ action_id: 'budget.ack' }] }),
  ],
  ['block_actions with actions as an object', FORM, payload({ type: 'block_actions', user, actions: { action_id: 'budget.ack' } })],
  ['a view_submission without a view', FORM, payload({ type: 'view_submission', user })],
  ['a block_suggestion without a user', FORM, payload({ type: 'block_suggestion', action_id: 'x' })],
  ['an event_callback with a null event', JSON_TYPE, JSON.stringify({ type: 'event_callback', event: null })],
  ['an event whose item is a string', JSON_TYPE, JSON.stringify({ type: 'event_callback', event: { type: 'reaction_added', item: 'x' } })],
  ['an event whose user is null', JSON_TYPE, JSON.stringify({ type: 'event_callback', event: { type: 'app_home_opened', user: null } })],
  ['url_verification without a challenge', JSON_TYPE, JSON.stringify({ type: 'url_verification' })],
  ['an object of no known kind', JSON_TYPE, JSON.stringify({ hello: 'world' })],
];

describe('hostile but correctly signed Slack requests (real Bolt over HTTP)', () => {
  let fake: FakeSlackApi;
  let harness: Harness | undefined;
  const rejections: unknown[] = [];
  const record = (reason: unknown) => rejections.push(reason);

  beforeAll(() => {
    process.on('unhandledRejection', record);
    process.on('uncaughtException', record);
  });
  afterAll(() => {
    process.off('unhandledRejection', record);
    process.off('uncaughtException', record);
  });
  beforeEach(async () => {
    fake = await FakeSlackApi.start();
  });
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
    fake.assertNoUnexpectedCalls();
    await fake.close();
    expect(rejections).toEqual([]);
  });

  async function start(): Promise<Harness> {
    harness = await startSlackServer(testDeps(demoConfig()).deps, fake);
    return harness;
  }

  /** A valid command after the hostile ones: the same app instance still acks and answers. */
  async function stillAnswers(h: Harness, id: string): Promise<void> {
    const res = await postSigned(h.url, slashCommandBody({ text: 'help', response_url: fake.responseUrl(id) }));
    expect(res.status).toBe(200);
    await waitFor(() => fake.responses.some((r) => r.id === id), `the answer to ${id}`);
  }

  it.each(HOSTILE)('answers %s with 400 and a short reason, runs nothing, and keeps serving', async (_name, contentType, body) => {
    const h = await start();
    const res = await postSigned(h.url, body, { headers: { 'content-type': contentType } });
    expect(res.status).toBe(400);
    const answer = (await res.json()) as { error: string };
    expect(answer.error.length).toBeGreaterThan(5);
    expect(answer.error.length).toBeLessThan(80);
    expect(answer.error).not.toMatch(/\bat .*:\d+|TypeError|undefined/);
    expect(h.dispatched).toEqual([]);
    await stillAnswers(h, 'after');
    expect(fake.responses.map((r) => r.id)).toEqual(['after']);
    expect(fake.calls).toEqual([]);
  });

  it('survives every hostile body in a row, then answers a valid command', async () => {
    const h = await start();
    const statuses = await Promise.all(
      HOSTILE.map(([, type, body]) => postSigned(h.url, body, { headers: { 'content-type': type } }).then((r) => r.status)),
    );
    expect(statuses).toEqual(HOSTILE.map(() => 400));
    await stillAnswers(h, 'after-all');
    expect(h.dispatched).toHaveLength(1);
  });

  it.each([
    ['payload=null', 'body is not a JSON object'],
    ['payload={}', 'not a Slack request burnrate understands'],
    ['payload=%7B', 'form field payload is not JSON'],
    ['', 'empty body'],
  ])('says why %s is refused', async (body, reason) => {
    const h = await start();
    const res = await postSigned(h.url, body);
    expect(await res.json()).toEqual({ error: reason });
  });

  it(`refuses a signed body over ${MAX_SLACK_BODY_BYTES} bytes with 413 before reading it, and keeps serving`, async () => {
    const h = await start();
    const huge = `payload=${'a'.repeat(MAX_SLACK_BODY_BYTES + 1)}`;
    const res = await postSigned(h.url, huge);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: string }).error).toBe(`request body over ${MAX_SLACK_BODY_BYTES} bytes`);
    await stillAnswers(h, 'after-huge');
  });

  it("answers Slack's SSL probe with 200 without a signature, and runs nothing", async () => {
    const h = await start();
    const res = await fetch(h.url, { method: 'POST', headers: { 'content-type': FORM }, body: 'ssl_check=1&token=legacy' });
    expect(res.status).toBe(200);
    expect(h.dispatched).toEqual([]);
  });
});
