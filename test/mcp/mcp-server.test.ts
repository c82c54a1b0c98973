import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleChat } from '../../src/chat/console/console-chat.js';
import { createConsoleRoutes } from '../../src/chat/console/console-server.js';
import type { Deps } from '../../src/deps.js';
import { startHttpServer } from '../../src/http/server.js';
import { dispatch } from '../../src/inbound/dispatcher.js';
import { runGpuCheck } from '../../src/jobs/gpu-check.js';
import { refreshSources } from '../../src/jobs/refresh-sources.js';
import { mcpRoutes } from '../../src/mcp/mcp-http.js';
import { openAlertsByTeam } from '../../src/snapshots/open-alerts.js';
import { readMcpTokens } from '../../src/mcp/mcp-tokens.js';
import { bearerTokens } from '../../src/mcp/bearer-tokens.js';
import { deliverOutbox } from '../../src/outbox/deliver-outbox.js';
import { DemoSource } from '../../src/providers/demo/demo-source.js';
import { ALICE, BOB, CAROL, STRANGER } from '../support/demo-org.js';
import { T } from '../support/gpu-demo.js';
import { testDeps } from '../support/deps.js';
import { demoConfig } from '../../src/providers/demo/demo-config.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { cli } from '../support/run-cli.js';

const TOKENS = {
  [CAROL]: 'carol-token-0123456789abcdef0123456789',
  [ALICE]: 'alice-token-0123456789abcdef0123456789',
  [STRANGER]: 'stranger-token-0123456789abcdef012345',
};
const READ_TOOLS = [
  'spend',
  'top_costs',
  'budgets',
  'idle_gpus',
  'waste',
  'recommendations',
  'savings',
  'anomalies',
  'findings',
  'explain_figure',
];

let deps: Deps;
let server: Server;
let dbPath: string;

beforeAll(async () => {
  dbPath = join(mkdtempSync(join(tmpdir(), 'burnrate-mcp-')), 'burnrate.db');
  // The demo organisation as the CLI loads it (its cluster included), with cloud actions on.
  const config = demoConfig({ cluster: true });
  config.actions.enabled = true;
  deps = testDeps(config, T, dbPath).deps;
  deps.gpu = buildGpuDeps(deps.config)!;
  deps.sources = [new DemoSource({ seed: 42, days: 90 })];
  const chat = new ConsoleChat(deps.store.console, deps.clock);
  deps.chat = [chat];
  await refreshSources(deps);
  // The idle check records the idle findings a proposal acts through, and posts their alerts.
  await runGpuCheck(deps);
  await deliverOutbox(deps);
  const tokens = bearerTokens(
    deps,
    readMcpTokens({
      BURNRATE_MCP_TOKENS: Object.entries(TOKENS)
        .map(([u, t]) => `${u}=${t}`)
        .join(','),
    }),
  );
  server = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    routes: new Map([
      ...createConsoleRoutes(deps, { chat, settings: { enabled: true, token: null, loopback: true }, dispatch }),
      // The test's clock stands still, so every request falls in one minute: no limit that this file could reach.
      ...mcpRoutes(deps, tokens, { perMinute: 10_000 }),
    ]),
    health: { alive: () => true, ready: async () => ({ ok: true, checks: {} }) },
  });
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await deps?.store.close();
});

const url = () => new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);

/** The SDK's own client over Streamable HTTP, with a user's bearer token. */
async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'burnrate-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url(), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  // Listing first makes the client check every answer against its tool's output schema.
  await client.listTools();
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

const textOf = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

/** The CLI's JSON answer, on the same database at the same moment. */
async function cliJson(args: string[]): Promise<unknown> {
  const result = await cli([...args, '--json', '--db', dbPath], { now: T });
  expect(result.err).toBe('');
  return JSON.parse(result.out);
}

function post(
  path: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, method: 'POST', path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('MCP over HTTP: who may call', () => {
  it('refuses a request without a token, or with a token nobody was given, before reading it', async () => {
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const none = await post('/mcp', initialize, headers);
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="burnrate"');
    const wrong = await post('/mcp', initialize, { ...headers, authorization: `Bearer ${TOKENS[CAROL]}x` });
    expect(wrong.status).toBe(401);
    await expect(connect('not-a-token')).rejects.toThrow(/bearer token from BURNRATE_MCP_TOKENS is required/);
    const ok = await post('/mcp', initialize, { ...headers, authorization: `Bearer ${TOKENS[CAROL]}` });
    expect(ok.status).toBe(200);
  });

  it('answers GET and DELETE with 405: no sessions or streams to serve', async () => {
    const get = await new Promise<number>((resolve) =>
      httpRequest({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/mcp', method: 'GET' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      }).end(),
    );
    expect(get).toBe(405);
  });

  it('answers 429 once a token has made its requests for the minute, naming when to retry', async () => {
    const limited = await startHttpServer({
      host: '127.0.0.1',
      port: 0,
      routes: mcpRoutes(deps, bearerTokens(deps, readMcpTokens({ BURNRATE_MCP_TOKENS: `${CAROL}=${TOKENS[CAROL]}` })), { perMinute: 2 }),
      health: { alive: () => true, ready: async () => ({ ok: true, checks: {} }) },
    });
    try {
      const list = () =>
        fetch(`http://127.0.0.1:${(limited.address() as AddressInfo).port}/mcp`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            authorization: `Bearer ${TOKENS[CAROL]}`,
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        });
      expect((await list()).status).toBe(200);
      expect((await list()).status).toBe(200);
      const third = await list();
      expect(third.status).toBe(429);
      // The test's clock stands still: the whole minute is still to wait.
      expect(third.headers.get('retry-after')).toBe('60');
    } finally {
      await new Promise((resolve) => limited.close(resolve));
    }
  });

  it('refuses a body that is not JSON', async () => {
    const bad = await post('/mcp', '{not json', {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${TOKENS[CAROL]}`,
    });
    expect(bad.status).toBe(400);
  });
});

describe('MCP tools', () => {
  it('lists every tool with its input and output schema; only proposals are not read-only', async () => {
    const client = await connect(TOKENS[CAROL]!);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...READ_TOOLS, 'propose_action', 'proposal_status']);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations?.readOnlyHint).toBe(tool.name !== 'propose_action');
    }
    const resources = await client.listResources();
    expect(resources.resources.map((r) => r.uri)).toEqual(['burnrate://teams', 'burnrate://freshness']);
    const teams = await client.readResource({ uri: 'burnrate://teams' });
    const content = teams.contents[0] as { text: string };
    expect(JSON.parse(content.text).teams.map((t: { id: string; roles: string[] }) => [t.id, t.roles])).toEqual([
      ['llm-training', ['owner']],
    ]);
    const freshness = JSON.parse(((await client.readResource({ uri: 'burnrate://freshness' })).contents[0] as { text: string }).text);
    expect(freshness.sources.length).toBeGreaterThan(0);
    const prompts = await client.listPrompts();
    expect(prompts.prompts.map((p) => p.name)).toEqual(['weekly_cost_review', 'why_did_spend_jump']);
    await client.close();
  });

  it('gives the figures the CLI gives for the same question', async () => {
    const client = await connect(TOKENS[CAROL]!);
    const spend = await call(client, 'spend', { team: 'llm-training', by: 'resource' });
    expect(spend.isError).toBeFalsy();
    expect(spend.structuredContent).toEqual(await cliJson(['spend', '--team', 'llm-training', '--by', 'resource']));
    const report = spend.structuredContent as { rows: { billed: number }[]; total: { billed: number }; teams: string[] };
    expect(report.teams).toEqual(['llm-training']);
    expect(report.rows.length).toBeGreaterThan(0);
    expect(textOf(spend)).toContain('llm-training');

    const lastMonth = await call(client, 'spend', { team: 'llm-training', period: 'last-month', basis: 'invoice' });
    expect(lastMonth.structuredContent).toEqual(
      await cliJson(['spend', '--team', 'llm-training', '--period', 'last-month', '--basis', 'invoice']),
    );

    const budgets = await call(client, 'budgets', { team: 'llm-training' });
    expect(budgets.structuredContent).toEqual(await cliJson(['budgets', '--team', 'llm-training']));

    const idle = await call(client, 'idle_gpus', { team: 'llm-training' });
    expect(idle.structuredContent).toEqual(await cliJson(['idle', '--team', 'llm-training']));

    const savings = await call(client, 'savings', { team: 'llm-training' });
    expect(savings.isError).toBeFalsy();
    const anomalies = await call(client, 'anomalies', { team: 'llm-training', days: 30 });
    expect(anomalies.structuredContent).toEqual(await cliJson(['anomalies', '--team', 'llm-training', '--days', '30']));
    await client.close();
  });

  it('answers every read tool with figures and a text summary', async () => {
    const client = await connect(TOKENS[CAROL]!);
    for (const name of READ_TOOLS) {
      const result = await call(client, name);
      expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
      expect(typeof result.structuredContent).toBe('object');
      expect(textOf(result).length).toBeGreaterThan(0);
    }
    const top = await call(client, 'top_costs', { n: 3 });
    expect((top.structuredContent as { rows: unknown[] }).rows).toHaveLength(3);
    await client.close();
  });

  it("covers only the user's own teams, and refuses another team's figures", async () => {
    const carol = await connect(TOKENS[CAROL]!);
    const all = await call(carol, 'spend');
    expect((all.structuredContent as { teams: string[] }).teams).toEqual(['llm-training']);
    const idle = (await call(carol, 'idle_gpus')).structuredContent as { idle: { team: string }[] };
    expect(idle.idle.length).toBeGreaterThan(0);
    expect(new Set(idle.idle.map((f) => f.team))).toEqual(new Set(['llm-training']));
    const wasteResult = await call(carol, 'waste');
    // The summary too: nothing of the organisation or of another team (its static node pools included).
    for (const other of ['ml-research', 'inference', 'vision']) expect(textOf(wasteResult)).not.toContain(other);
    const waste = wasteResult.structuredContent as {
      teams: { team: string }[];
      organisation: unknown;
      instances: { team: string }[];
    };
    expect(waste.teams.map((t) => t.team)).toEqual(['llm-training']);
    expect(waste.organisation).toBeNull();
    expect(waste.instances.every((i) => i.team === 'llm-training')).toBe(true);
    for (const name of READ_TOOLS) {
      const refused = await call(carol, name, { team: 'ml-research' });
      expect(refused.isError, name).toBe(true);
      expect(textOf(refused)).toContain('you are not a member of team "ml-research"');
    }
    await carol.close();

    const stranger = await connect(TOKENS[STRANGER]!);
    const none = await call(stranger, 'spend');
    expect(none.isError).toBe(true);
    expect(textOf(none)).toContain('not an owner or approver of any team');
    await stranger.close();
  });

  it('audits every call, reads included: the tool, its arguments, the user and the outcome', async () => {
    const client = await connect(TOKENS[CAROL]!);
    const since = (await deps.store.audit.list(1))[0]?.id ?? 0;
    await call(client, 'spend', { team: 'llm-training', by: 'day' });
    await call(client, 'budgets', { team: 'ml-research' });
    await call(client, 'idle_gpus');
    await client.close();
    const rows = (await deps.store.audit.list()).filter((a) => a.id > since).reverse();
    expect(rows.map((a) => [a.platform, a.userId, a.action, a.subject, a.result, a.detail])).toEqual([
      ['mcp', CAROL, 'mcp.spend', 'llm-training', 'ok', '{"team":"llm-training","by":"day"}'],
      ['mcp', CAROL, 'mcp.budgets', 'ml-research', 'refused', '{"team":"ml-research"} — you are not a member of team "ml-research"'],
      ['mcp', CAROL, 'mcp.idle_gpus', 'your teams', 'ok', '{}'],
    ]);
    expect(JSON.stringify(rows)).not.toContain(TOKENS[CAROL]);
  });

  it('refuses hostile arguments with a clear error', async () => {
    const client = await connect(TOKENS[CAROL]!);
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['spend', { team: "x'; DROP TABLE spend_daily; --" }, /team id or name/],
      ['spend', { team: 'a'.repeat(10_000) }, /team/],
      ['spend', { by: 'password' }, /by/],
      ['spend', { period: 'since the dawn of time' }, /period|range|month/i],
      ['spend', { period: '1900-01' }, /19|year/],
      ['top_costs', { n: 1_000_000 }, /n/],
      ['top_costs', { n: 2.5 }, /n/],
      ['waste', { month: '2026-13' }, /YYYY-MM/],
      ['waste', { days: -1 }, /days/],
      ['anomalies', { days: 10_000 }, /days/],
      ['spend', { team: 42 }, /team/],
      ['proposal_status', { id: '../../etc/passwd' }, /id/],
      ['propose_action', { action: 'terminate', instance: 'i-1' }, /action/],
      ['propose_action', { action: 'stop', instance: 'i-1 <script>' }, /instance/],
      ['propose_action', { action: 'stop', instance: 'i-1', reason: 'x'.repeat(301) }, /reason/],
      ['spend', { team: 'nobody-knows-this-team' }, /unknown team/],
    ];
    const since = (await deps.store.audit.list(1))[0]?.id ?? 0;
    for (const [name, args, message] of cases) {
      const result = await call(client, name, args);
      expect(result.isError, `${name} ${JSON.stringify(args).slice(0, 60)}`).toBe(true);
      expect(textOf(result)).toMatch(message);
    }
    // Each refusal is audited, those the SDK answers before the tool runs included, in bounded rows.
    const refused = (await deps.store.audit.list()).filter((a) => a.id > since).reverse();
    expect(refused.map((a) => [a.userId, a.action, a.result])).toEqual(cases.map(([name]) => [CAROL, `mcp.${name}`, 'refused']));
    expect(refused[1]!.subject.length).toBeLessThanOrEqual(128);
    expect(refused[1]!.detail!.length).toBeLessThanOrEqual(600);
    // Nothing of the database leaks: the table is still there and answers.
    expect((await call(client, 'spend')).isError).toBeFalsy();
    await client.close();
  });
});

describe('MCP proposals', () => {
  it('posts a proposal to the team channel in the console that acts only when an authorised person clicks', async () => {
    const carol = await connect(TOKENS[CAROL]!);
    const idle = (await call(carol, 'idle_gpus')).structuredContent as {
      idle: { instanceId: string; name: string | null; protected: boolean }[];
    };
    // A machine of the demo fleet (a workload would be scaled, not stopped), not protected.
    const target = idle.idle.find((f) => !f.protected && !f.instanceId.startsWith('k8s:'))!;
    const stateOf = async () => (await deps.gpu!.instances.describe([target.instanceId]))[0]!.state;
    const before = (await deps.store.console.list('llm-training', CAROL)).length;

    const proposed = await call(carol, 'propose_action', {
      action: 'stop',
      instance: target.instanceId,
      reason: 'idle since Friday, nobody uses it',
    });
    expect(proposed.isError, textOf(proposed)).toBeFalsy();
    const { proposal } = proposed.structuredContent as { proposal: { id: string; subject: string; team: string; byUser: string } };
    expect(proposal).toMatchObject({ team: 'llm-training', byUser: CAROL });
    // Asking changes nothing in the cloud.
    expect(await stateOf()).toBe('running');

    const stream = await deps.store.console.list('llm-training', CAROL);
    expect(stream.length).toBe(before + 1);
    const alert = stream.at(-1)!;
    expect(alert.message.summary).toMatch(
      new RegExp(`^An assistant used by .+ proposes stopping ${target.name ?? target.instanceId}: idle \\d+`),
    );
    expect(JSON.stringify(alert.message.blocks)).toContain('idle since Friday, nobody uses it');
    const buttons = alert.message.blocks.flatMap((b) => (b.type === 'actions' ? b.buttons : []));
    const stop = buttons.find((b) => b.action === 'instance.stop')!;
    expect(JSON.parse(stop.value)).toEqual({ f: proposal.subject });

    expect((await call(carol, 'proposal_status', { id: proposal.id })).structuredContent).toMatchObject({ outcome: 'waiting', clicks: [] });

    // Alice owns another team: her click is refused and audited, nothing stops.
    const click = (as: string) =>
      post('/console/action', JSON.stringify({ as, action: stop.action, value: stop.value, messageId: alert.id }), {
        'content-type': 'application/json',
      });
    expect((await click(ALICE)).status).toBe(200);
    expect(await stateOf()).toBe('running');
    const refused = (await call(carol, 'proposal_status', { id: proposal.id })).structuredContent as {
      outcome: string;
      clicks: { userId: string; result: string }[];
    };
    expect(refused.outcome).toBe('waiting');
    expect(refused.clicks.map((c) => [c.userId, c.result])).toEqual([[ALICE, 'refused']]);

    // Carol owns it: her click stops it, through the same pipeline as any click.
    await click(CAROL);
    expect(await stateOf()).toBe('stopped');
    const done = (await call(carol, 'proposal_status', { id: proposal.id })).structuredContent as { outcome: string; decidedBy: string };
    expect(done).toMatchObject({ outcome: 'stopped', decidedBy: CAROL });
    // Decided: an assistant asking again is told who decided, and nothing is posted.
    const again = await call(carol, 'propose_action', { action: 'stop', instance: target.instanceId });
    expect(again.isError).toBe(true);
    expect(textOf(again)).toMatch(/^Nothing to propose for .+: .+ stopped it at /);
    const audit = (await deps.store.audit.list())
      .filter((a) => a.subject === proposal.subject)
      .map((a) => [a.platform, a.userId, a.action, a.result]);
    expect(audit).toEqual([
      ['mcp', CAROL, 'mcp.propose', 'refused'],
      ['console', CAROL, 'instance.stop', 'ok'],
      ['console', ALICE, 'instance.stop', 'refused'],
      ['mcp', CAROL, 'mcp.propose', 'ok'],
    ]);
    await carol.close();
  });

  it('proposes a spot migration through the recommendation and its Approve button, decided by approvers only', async () => {
    const alice = await connect(TOKENS[ALICE]!);
    const recs = (await call(alice, 'recommendations')).structuredContent as {
      recommendations: { kind: string; instanceId: string; name: string | null; blocker?: string | null }[];
    };
    const ready = recs.recommendations.find((r) => r.kind === 'spot' && !r.blocker)!;
    const blocked = recs.recommendations.find((r) => r.kind === 'spot' && r.blocker)!;
    const refused = await call(alice, 'propose_action', { action: 'spot', instance: blocked.instanceId });
    expect(textOf(refused)).toMatch(/^Nothing to propose for .+: it is not ready for spot yet: /);

    const proposed = await call(alice, 'propose_action', { action: 'spot', instance: ready.instanceId });
    expect(proposed.isError, textOf(proposed)).toBeFalsy();
    const { proposal } = proposed.structuredContent as { proposal: { id: string; subject: string; team: string } };
    expect(proposal).toMatchObject({ subject: ready.instanceId, team: 'ml-research' });
    const alert = (await deps.store.console.list('ml-research', ALICE)).at(-1)!;
    expect(alert.message.summary).toMatch(
      new RegExp(`^An assistant used by .+ proposes moving ${ready.name} to spot: saves \\$[\\d,.]+ a month$`),
    );
    const approve = alert.message.blocks.flatMap((b) => (b.type === 'actions' ? b.buttons : [])).find((b) => b.action === 'spot.approve')!;
    expect(JSON.parse(approve.value)).toEqual({ i: ready.instanceId });
    expect((await call(alice, 'proposal_status', { id: proposal.id })).structuredContent).toMatchObject({ outcome: 'waiting' });

    const click = (as: string) =>
      post('/console/action', JSON.stringify({ as, action: approve.action, value: approve.value, messageId: alert.id }), {
        'content-type': 'application/json',
      });
    await click(ALICE);
    await click(BOB);
    const status = (await call(alice, 'proposal_status', { id: proposal.id })).structuredContent as {
      outcome: string;
      clicks: { userId: string; result: string }[];
    };
    // Alice owns the team but approves nothing; Bob's approval is one of the two this saving needs.
    expect(status.outcome).toBe('approved, waiting for a second approver');
    expect(status.clicks.map((c) => [c.userId, c.result])).toEqual([
      [ALICE, 'refused'],
      [BOB, 'ok'],
    ]);
    expect((await deps.store.spotMigrations.active(ready.instanceId))?.state).not.toBe('migrated');
    await alice.close();
  });

  it("cannot propose on, or read the status of, another team's instance", async () => {
    const carol = await connect(TOKENS[CAROL]!);
    const alice = await connect(TOKENS[ALICE]!);
    const theirs = (await call(alice, 'idle_gpus')).structuredContent as { idle: { instanceId: string; protected: boolean }[] };
    const refused = await call(carol, 'propose_action', { action: 'stop', instance: theirs.idle[0]!.instanceId });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('no open idle alert');

    const mine = (await call(carol, 'idle_gpus')).structuredContent as { idle: { instanceId: string; protected: boolean }[] };
    const keep = await call(carol, 'propose_action', { action: 'keep', instance: mine.idle.at(-1)!.instanceId });
    const { id } = (keep.structuredContent as { proposal: { id: string } }).proposal;
    // Asked again (a retry, an agent in a loop): the same proposal, not a second post in the channel.
    const posts = (await deps.store.console.list('llm-training', CAROL)).length;
    const again = await call(carol, 'propose_action', { action: 'keep', instance: mine.idle.at(-1)!.instanceId, reason: 'really' });
    expect(again.structuredContent).toMatchObject({ earlier: true, proposal: { id } });
    expect(textOf(again)).toContain('nothing posted again');
    expect((await deps.store.console.list('llm-training', CAROL)).length).toBe(posts);
    const hidden = await call(alice, 'proposal_status', { id });
    expect(hidden.isError).toBe(true);
    expect(textOf(hidden)).toContain(`no proposal "${id}" in your teams`);
    await carol.close();
    await alice.close();
  });

  it('posts one of two identical proposals made at the same moment, and closes a proposal someone dismisses', async () => {
    const carol = await connect(TOKENS[CAROL]!);
    // An idle alert of Carol's team nobody has proposed anything on yet.
    const open = (await deps.store.gpuFindings.listOpen()).filter((f) => f.team === 'llm-training' && !f.protected);
    const untouched = [];
    for (const f of open) if ((await deps.store.proposals.forSubject(f.id)).length === 0) untouched.push(f);
    const target = untouched[0]!;
    const posts = (await deps.store.console.list('llm-training', CAROL)).length;
    const both = await Promise.all([
      call(carol, 'propose_action', { action: 'stop', instance: target.instanceId }),
      call(carol, 'propose_action', { action: 'stop', instance: target.instanceId }),
    ]);
    const answers = both.map((r) => r.structuredContent as { earlier: boolean; proposal: { id: string } });
    expect(answers.map((a) => a.earlier).sort()).toEqual([false, true]);
    expect(answers[0]!.proposal.id).toBe(answers[1]!.proposal.id);
    expect((await deps.store.console.list('llm-training', CAROL)).length).toBe(posts + 1);

    const { id } = answers[0]!.proposal;
    const alert = (await deps.store.console.list('llm-training', CAROL)).at(-1)!;
    const dismiss = alert.message.blocks
      .flatMap((b) => (b.type === 'actions' ? b.buttons : []))
      .find((b) => b.action === 'proposal.dismiss')!;
    expect(JSON.parse(dismiss.value)).toEqual({ p: id });
    const click = (as: string) =>
      post('/console/action', JSON.stringify({ as, action: dismiss.action, value: dismiss.value, messageId: alert.id }), {
        'content-type': 'application/json',
      });
    // Alice is of another team: refused, and the proposal still waits.
    await click(ALICE);
    expect((await call(carol, 'proposal_status', { id })).structuredContent).toMatchObject({ outcome: 'waiting' });
    await click(CAROL);
    const status = (await call(carol, 'proposal_status', { id })).structuredContent as {
      outcome: string;
      decidedBy: string;
      clicks: { userId: string; action: string; result: string }[];
    };
    expect(status).toMatchObject({ outcome: 'dismissed', decidedBy: CAROL });
    expect(status.clicks.map((c) => [c.userId, c.action, c.result])).toEqual([
      [ALICE, 'proposal.dismiss', 'refused'],
      [CAROL, 'proposal.dismiss', 'ok'],
    ]);
    // Closed: the message keeps what was proposed and who said no, without buttons.
    const closed = (await deps.store.console.list('llm-training', CAROL)).find((m) => m.id === alert.id)!;
    expect(closed.message.blocks.some((b) => b.type === 'actions')).toBe(false);
    expect(closed.message.summary).toMatch(/proposes stopping .+ — dismissed$/);
    expect(await deps.gpu!.instances.describe([target.instanceId])).toMatchObject([{ state: 'running' }]);

    // Answers recorded as a click records them: Dan acknowledged another alert and kept its instance running.
    const other = (await deps.store.gpuFindings.listOpen()).find((f) => f.team === 'llm-training' && f.id !== target.id)!;
    const at = deps.clock();
    await deps.store.acknowledgements.acknowledge({ findingId: other.id, byUser: 'U0DEMODAN', at });
    await deps.store.keeps.set({ instanceId: other.instanceId, until: new Date(at.getTime() + 4 * 3_600_000), byUser: 'U0DEMODAN', at });

    // The findings tool lists each alert with who answered it how: the proposal, by Carol's assistant.
    const findings = await call(carol, 'findings');
    const listed = (
      findings.structuredContent as {
        findings: { id: string; team: string; answers: { answer: string; by: string; proposal?: { id: string } }[] }[];
      }
    ).findings;
    expect(new Set(listed.map((f) => f.team))).toEqual(new Set(['llm-training']));
    expect(listed.find((f) => f.id === target.id)!.answers).toEqual([
      expect.objectContaining({ answer: 'proposed', by: CAROL, proposal: { id, action: 'stop' } }),
    ]);
    const dans = listed.find((f) => f.id === other.id)!.answers.map((a) => [a.answer, a.by]);
    expect(dans.filter(([, by]) => by === 'U0DEMODAN')).toEqual([
      ['acknowledged', 'U0DEMODAN'],
      ['kept running', 'U0DEMODAN'],
    ]);
    // The same open alerts App Home counts for the team, of every kind.
    expect(listed).toHaveLength((await openAlertsByTeam(deps, ['llm-training'])).get('llm-training') ?? 0);
    expect(textOf(findings)).toMatch(/^\d+ open alerts?, \d+ without an answer\./);
    await carol.close();
  });
});
