import { request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleChat } from '../../../src/chat/console/console-chat.js';
import { createConsoleRoutes } from '../../../src/chat/console/console-server.js';
import type { ConsoleSettings } from '../../../src/chat/console/console-settings.js';
import { dispatch } from '../../../src/inbound/dispatcher.js';
import type { Deps } from '../../../src/deps.js';
import { startHttpServer } from '../../../src/http/server.js';
import { runBudgetCheck } from '../../../src/jobs/budget-check.js';
import { deliverOutbox } from '../../../src/outbox/deliver-outbox.js';
import { refreshSources } from '../../../src/jobs/refresh-sources.js';
import { demoConfig } from '../../../src/providers/demo/demo-config.js';
import { DemoSource } from '../../../src/providers/demo/demo-source.js';
import { testDeps } from '../../support/deps.js';
import { ALICE, CAROL } from '../../support/demo-org.js';
import { adaptiveCardProblems } from '../../support/platform-limits.js';

/** HTML's five escapes undone (escapeHtml's inverse), for reading an attribute back. */
const unescapeHtml = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
const TOKEN = 'test-console-token-0123456789abcdef';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  json: () => any;
}

/** node:http rather than fetch: tests need to set Host and Origin as a hostile page would. */
function call(
  server: Server,
  method: string,
  path: string,
  options: { body?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body) });
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const postJson = (server: Server, path: string, body: unknown, headers: Record<string, string> = {}) =>
  call(server, 'POST', path, { body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });

async function start(deps: Deps, chat: ConsoleChat, settings: ConsoleSettings): Promise<Server> {
  const routes = createConsoleRoutes(deps, { chat, settings, dispatch });
  return startHttpServer({
    host: '127.0.0.1',
    port: 0,
    routes,
    health: { alive: () => true, ready: async () => ({ ok: true, checks: {} }) },
  });
}

let deps: Deps;
let chat: ConsoleChat;
let open: Server;
let locked: Server;
let alertId: number;
let ackValue: string;

beforeAll(async () => {
  deps = testDeps(demoConfig(), '2026-11-20T09:00:00Z').deps;
  deps.sources = [new DemoSource({ seed: 42, days: 90 })];
  chat = new ConsoleChat(deps.store.console, deps.clock);
  deps.chat = [chat];
  await refreshSources(deps);
  await runBudgetCheck(deps);
  await deliverOutbox(deps);
  const alert = (await deps.store.console.list('llm-training', CAROL)).find((m) =>
    m.message.summary.startsWith('LLM Training is on track'),
  );
  if (!alert) throw new Error('the demo should alert llm-training');
  alertId = alert.id;
  const actions = alert.message.blocks.find((b) => b.type === 'actions');
  ackValue = actions?.type === 'actions' ? actions.buttons.find((b) => b.action === 'budget.ack')!.value : '';
  open = await start(deps, chat, { enabled: true, token: null, loopback: true });
  locked = await start(deps, chat, { enabled: true, token: TOKEN, loopback: false });
});

afterAll(async () => {
  for (const server of [open, locked]) await new Promise((resolve) => server?.close(resolve));
  await deps.store.close();
});

describe('console page', () => {
  it('serves the page with a nonce CSP, the channel list and the act-as picker', async () => {
    const res = await call(open, 'GET', '/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const nonce = /script-src 'nonce-([^']+)'/.exec(String(res.headers['content-security-policy']))?.[1];
    expect(nonce).toBeTruthy();
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.body).toContain(`<script nonce="${nonce}">`);
    // The page's own script, and Microsoft's card SDK from the console's origin for the Teams view: both nonce'd.
    expect(res.body.match(/<script/g)).toHaveLength(2);
    expect(res.body).toContain(`<script nonce="${nonce}" src="/console/adaptivecards.js"></script>`);
    for (const team of ['ml-research', 'llm-training', 'inference', 'vision', '@dm']) expect(res.body).toContain(`data-channel="${team}"`);
    expect(res.body).toContain(`<option value="${ALICE}" selected>${ALICE} — owner of ml-research</option>`);
    expect(res.body).toContain('<option value="U0DEMOADMIN">U0DEMOADMIN — admin</option>');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('renders the chosen channel as the chosen user, and GET /console is the same page', async () => {
    const res = await call(open, 'GET', `/console?channel=llm-training&as=${CAROL}`);
    expect(res.body).toContain('LLM Training is on track to spend');
    expect(res.body).toContain(`<option value="${CAROL}" selected>`);
    expect(res.body).toContain('data-channel="llm-training" data-title="# llm-training"');
  });

  it("shows each user's Home, the dashboard Slack's App Home shows, without its Slack-only Edit budget form", async () => {
    const home = (await call(open, 'GET', `/console/messages?channel=@home&as=${CAROL}`)).json().html as string;
    expect(home).toContain(`burnrate — ${CAROL}`);
    expect(home).toContain('LLM Training');
    expect(home).toContain('Open alerts');
    expect(home).not.toContain('data-action="budget.edit');
    // What is typed there is answered in the direct messages.
    await postJson(open, '/console/command', { as: CAROL, channel: '@home', text: 'whoami' });
    expect((await deps.store.console.list('@dm', CAROL)).at(-1)?.message.summary).toBe(`You are ${CAROL}`);
  });

  it('returns a channel stream as JSON for live refreshes', async () => {
    const res = await call(open, 'GET', `/console/messages?channel=llm-training&as=${CAROL}`);
    expect(res.status).toBe(200);
    expect(res.json().html).toContain(`data-message-id="${alertId}"`);
    expect((await call(open, 'GET', '/console/messages?channel=nope&as=U0DEMOCAROL')).json()).toEqual({
      error: expect.stringContaining('channel: unknown channel "nope"'),
    });
  });

  it('returns the Teams view as the cards Teams receives, and serves the card SDK that draws them', async () => {
    const res = await call(open, 'GET', `/console/messages?channel=llm-training&as=${CAROL}&view=teams`);
    expect(res.status).toBe(200);
    const html: string = res.json().html;
    expect(html).toContain(`data-message-id="${alertId}"`);
    expect(html).not.toContain('class="msg-content"');
    // Each card is the Adaptive Card renderer's JSON in an escaped attribute, one a message, valid for Teams.
    const cards = [...html.matchAll(/class="ac-card" data-card="([^"]*)"/g)].map((m) => JSON.parse(unescapeHtml(m[1]!)));
    expect(cards.length).toBe((html.match(/<article /g) ?? []).length);
    for (const card of cards) expect(adaptiveCardProblems(card)).toEqual([]);
    const sdk = await call(open, 'GET', '/console/adaptivecards.js');
    expect(sdk.status).toBe(200);
    expect(sdk.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(sdk.body).toContain('AdaptiveCard');
  });

  it('refuses a Host that is not loopback: a rebound DNS name must not reach the console', async () => {
    const res = await call(open, 'GET', '/', { headers: { host: 'evil.example:3000' } });
    expect(res.status).toBe(403);
    expect(res.body).toContain('loopback addresses only');
    expect(
      (await call(open, 'GET', '/console/messages?channel=llm-training&as=U0DEMOCAROL', { headers: { host: 'evil.example' } })).status,
    ).toBe(403);
  });
});

describe('console requests', () => {
  it('asks for JSON, and says what is wrong with a body', async () => {
    const form = await call(open, 'POST', '/console/command', {
      body: 'as=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    expect(form.json().error).toBe('send the request as JSON with content-type: application/json');
    const broken = await call(open, 'POST', '/console/command', { body: '{"as":', headers: { 'content-type': 'application/json' } });
    expect(broken.status).toBe(400);
    expect(broken.json().error).toMatch(/^the request body is not valid JSON/);
    expect((await postJson(open, '/console/command', { as: ALICE, channel: 'llm-training' })).json().error).toMatch(/^text: /);
    expect(
      (await postJson(open, '/console/command', { as: ALICE, channel: 'llm-training', text: 'help', admin: true })).json().error,
    ).toMatch(/^body: .*admin/);
    expect(
      (await postJson(open, '/console/action', { as: ALICE, action: 'budget.ack', value: ackValue, messageId: '1' })).json().error,
    ).toMatch(/^messageId: /);
    const huge = await postJson(open, '/console/command', { as: ALICE, channel: 'llm-training', text: 'x'.repeat(20_000) });
    expect(huge.status).toBe(413);
  });

  it('acts only as a configured user, in a known channel', async () => {
    const stranger = await postJson(open, '/console/command', { as: 'U0NOBODY', channel: 'llm-training', text: 'spend' });
    expect(stranger.status).toBe(400);
    expect(stranger.json().error).toMatch(/^as: unknown user "U0NOBODY"; act as one of U0DEMOALICE, U0DEMOBOB, /);
    expect((await postJson(open, '/console/command', { as: ALICE, channel: 'general', text: 'spend' })).json().error).toMatch(
      /^channel: unknown channel "general"/,
    );
  });

  it('refuses a POST from another origin', async () => {
    const res = await postJson(
      open,
      '/console/command',
      { as: ALICE, channel: 'llm-training', text: 'help' },
      { origin: 'https://evil.example' },
    );
    expect(res.status).toBe(403);
    expect(res.json().error).toContain('https://evil.example');
  });

  it('runs a command through the dispatcher and answers only the user who typed it', async () => {
    const res = await postJson(open, '/console/command', { as: ALICE, channel: 'llm-training', text: '/burnrate spend' });
    expect(res.json()).toEqual({ ok: true });
    const alice = await deps.store.console.list('llm-training', ALICE);
    expect(alice.slice(-2).map((m) => [m.author, m.privateTo, m.message.summary.split(':')[0]])).toEqual([
      [ALICE, ALICE, '/burnrate spend'],
      [null, ALICE, 'Spend of ml-research, 1 Nov – 30 Nov'],
    ]);
    expect((await deps.store.console.list('llm-training', CAROL)).some((m) => m.privateTo === ALICE)).toBe(false);
    const dm = await postJson(open, '/console/command', { as: CAROL, channel: '@dm', text: 'whoami' });
    expect(dm.status).toBe(200);
    expect(JSON.stringify((await deps.store.console.list('@dm', CAROL)).at(-1)?.message)).toContain('llm-training');
  });

  it('turns a click into the same action as in Slack: refused for a non-member, applied and audited for the owner', async () => {
    const refused = await postJson(open, '/console/action', { as: ALICE, action: 'budget.ack', value: ackValue, messageId: alertId });
    expect(refused.json()).toEqual({ ok: true });
    const answer = (await deps.store.console.list('llm-training', ALICE)).at(-1);
    expect(answer?.privateTo).toBe(ALICE);
    expect(answer?.message.summary).toBe('Only owners and approvers of llm-training can acknowledge its alerts.');
    expect((await deps.store.console.get(alertId))?.updatedAt).toBe((await deps.store.console.get(alertId))?.createdAt);

    await postJson(open, '/console/action', { as: CAROL, action: 'budget.ack', value: ackValue, messageId: alertId });
    const alert = await deps.store.console.get(alertId);
    expect(alert?.message.blocks).toContainEqual({
      type: 'mentions',
      lead: expect.stringMatching(/^Acknowledged ⟦t:\d+⟧ by$/), // a moment: each surface draws it (UTC here, the reader's zone in Slack)
      people: [{ id: null, name: CAROL, group: false }],
    });
    const audit = await deps.store.audit.list();
    expect(audit.filter((a) => a.action === 'budget.ack').map((a) => [a.platform, a.userId, a.result])).toEqual([
      ['console', CAROL, 'ok'],
      ['console', ALICE, 'refused'],
    ]);
  });

  it('answers Show breakdown in the thread of the alert', async () => {
    await postJson(open, '/console/action', { as: CAROL, action: 'budget.breakdown', value: ackValue, messageId: alertId });
    const thread = (await deps.store.console.list('llm-training', CAROL)).filter((m) => m.parentId === alertId);
    expect(thread.map((m) => m.message.summary.split(':')[0])).toEqual([
      // The alert's chart came with it; the breakdown follows.
      'LLM Training',
      'Spend of llm-training by service, 1 Nov – 30 Nov',
      'Spend of llm-training, top 10 resources, 1 Nov – 30 Nov',
    ]);
  });

  it('refuses a button that is not on the message, and a message the user cannot see', async () => {
    const forged = await postJson(open, '/console/action', {
      as: CAROL,
      action: 'budget.ack',
      value: '{"f":"budget.actual:vision:2026-11:50"}',
      messageId: alertId,
    });
    expect(forged.status).toBe(400);
    expect(forged.json().error).toBe(`action: message ${alertId} has no budget.ack button with that value`);
    const aliceOnly = (await deps.store.console.list('llm-training', ALICE)).find((m) => m.privateTo === ALICE)!;
    const hidden = await postJson(open, '/console/action', { as: CAROL, action: 'budget.ack', value: ackValue, messageId: aliceOnly.id });
    expect(hidden.json().error).toBe(`messageId: no message ${aliceOnly.id} in this console`);
    expect((await postJson(open, '/console/action', { as: CAROL, action: 'budget.ack', value: ackValue, messageId: 99_999 })).status).toBe(
      400,
    );
  });

  it('announces every change on the event stream, without its content', async () => {
    const { port } = open.address() as AddressInfo;
    const received = new Promise<string>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/console/events' }, (res) => {
        expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString();
          if (text.includes('event: change')) {
            req.destroy();
            resolve(text);
          }
        });
        // Post once the stream is open, so the change is the one this test caused.
        void chat.post('vision', { summary: 'secret figures', blocks: [] });
      });
      req.on('error', reject);
      req.end();
    });
    const text = await received;
    expect(text).toMatch(/^retry: 2000\n\nevent: change\ndata: \{"channel":"vision","id":\d+,"privateTo":null\}\n\n$/);
    expect(text).not.toContain('secret figures');
  });
});

describe('console with a token', () => {
  it('shows a page that asks for the token, and trades a correct ?token= for a cookie', async () => {
    const bare = await call(locked, 'GET', '/');
    expect(bare.status).toBe(401);
    expect(bare.body).toContain('needs its token');
    expect(bare.body).not.toContain(TOKEN);
    expect((await call(locked, 'GET', '/?token=wrong-token-wrong-token')).status).toBe(401);

    const login = await call(locked, 'GET', `/?channel=vision&token=${TOKEN}`);
    expect(login.status).toBe(303);
    expect(login.headers.location).toBe('/?channel=vision');
    const cookie = String(login.headers['set-cookie']?.[0]);
    expect(cookie).toMatch(/^burnrate_console=[0-9a-f]{64}; Path=\/; HttpOnly; SameSite=Strict$/);
    expect(cookie).not.toContain(TOKEN);

    const session = cookie.split(';')[0]!;
    expect((await call(locked, 'GET', '/', { headers: { cookie: session, host: 'burnrate.internal:3000' } })).status).toBe(200);
    expect((await call(locked, 'GET', '/console/messages?channel=vision&as=U0DEMOGRACE', { headers: { cookie: session } })).status).toBe(
      200,
    );
  });

  it('refuses API requests without the token, and accepts a bearer token', async () => {
    const command = { as: ALICE, channel: '@dm', text: 'help' };
    const anonymous = await postJson(locked, '/console/command', command);
    expect(anonymous.status).toBe(401);
    expect(anonymous.json().error).toContain('needs its token');
    expect((await call(locked, 'GET', '/console/events')).status).toBe(401);
    expect((await postJson(locked, '/console/command', command, { authorization: 'Bearer not-the-token' })).status).toBe(401);
    expect((await postJson(locked, '/console/command', command, { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
  });
});
