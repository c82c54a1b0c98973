import { readFileSync, mkdtempSync, readdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../src/deps.js';
import { startHttpServer } from '../../src/http/server.js';
import { bearerTokens } from '../../src/mcp/bearer-tokens.js';
import { mcpRoutes } from '../../src/mcp/mcp-http.js';
import { demoConfig } from '../../src/providers/demo/demo-config.js';
import { CAROL, STRANGER } from '../support/demo-org.js';
import { testDeps } from '../support/deps.js';
import { cli } from '../support/run-cli.js';

const NOW = '2026-11-21T09:00:00Z';

let dir: string;
let db: string;
let deps: Deps;
let server: Server;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'burnrate-mcp-tokens-'));
  db = join(dir, 'burnrate.db');
  expect((await cli(['demo', '--db', db], { cwd: dir, now: NOW })).code).toBe(0);
  deps = testDeps(demoConfig(), NOW, db).deps;
  server = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    routes: mcpRoutes(deps, bearerTokens(deps, null), { perMinute: 3 }),
    health: { alive: () => true, ready: async () => ({ ok: true, checks: {} }) },
  });
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await deps?.store.close();
});

const tokenCli = (args: string[], now = NOW) => cli(['mcp', 'token', ...args, '--db', db], { cwd: dir, now });

/** `burnrate mcp token create`, as an admin runs it: the token from its JSON answer. */
async function create(args: string[], now = NOW): Promise<{ token: string; id: string; expiresAt: string | null }> {
  const result = await tokenCli(['create', ...args, '--json'], now);
  expect(result.err).toBe('');
  return JSON.parse(result.out);
}

/** One JSON-RPC request to /mcp with a bearer token. */
const listTools = (token: string) =>
  fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });

describe('burnrate mcp token', () => {
  it('prints a token once, keeps only its hash, and /mcp answers it as its user until it is revoked', async () => {
    const printed = await tokenCli(['create', '--user', CAROL, '--name', 'laptop']);
    expect(printed.code).toBe(0);
    const token = printed.out.split('\n')[0]!;
    expect(token).toMatch(/^brmcp_[A-Za-z0-9_-]{43}$/);
    expect(printed.out).toMatch(/Token mt_[0-9a-f]{12} acts as .+ \(laptop\), until 2027-02-19T09:00:00.000Z/);
    const list = await tokenCli(['list']);
    expect(list.out).toContain(`${CAROL}  valid    created 2026-11-21T09:00:00.000Z  expires 2027-02-19T09:00:00.000Z  laptop`);
    expect(list.out).not.toContain(token);
    // Nowhere in the database's files: only its SHA-256 is written.
    for (const file of readdirSync(dir).filter((f) => f.startsWith('burnrate.db')))
      expect(readFileSync(join(dir, file)).includes(Buffer.from(token.slice(6)))).toBe(false);

    const client = new Client({ name: 'burnrate-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const spend = (await client.callTool({ name: 'spend', arguments: {} })) as CallToolResult;
    expect((spend.structuredContent as { teams: string[] }).teams).toEqual(['llm-training']);
    await client.close();

    const id = /Token (mt_[0-9a-f]{12})/.exec(printed.out)![1]!;
    const revoked = await tokenCli(['revoke', id]);
    expect(revoked.out).toContain(`revoked ${id} (${CAROL}, laptop) from ${new Date(NOW).toISOString()}`);
    const refused = await listTools(token);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: `this token (${id}) was revoked: ask for a new one (burnrate mcp token create)` });
    expect((await tokenCli(['list'])).out).toContain(`${CAROL}  revoked`);
    // Issued and revoked by someone at the command line: both in the audit log, never the token.
    const audit = (await deps.store.audit.list()).filter((a) => a.subject === id).map((a) => [a.platform, a.action, a.result]);
    expect(audit).toEqual([
      ['cli', 'mcp.token.revoke', 'ok'],
      ['cli', 'mcp.token.create', 'ok'],
    ]);
    expect(JSON.stringify(await deps.store.audit.list())).not.toContain(token);
  });

  it('refuses a token past its expiry', async () => {
    const { token, id } = await create(['--user', CAROL, '--expires', '1d'], '2026-11-19T09:00:00Z');
    const response = await listTools(token);
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: string }).error).toBe(
      `this token (${id}) was expired: ask for a new one (burnrate mcp token create)`,
    );
    const forever = await create(['--user', CAROL, '--expires', 'never'], '2020-01-01T00:00:00Z');
    expect(forever.expiresAt).toBeNull();
    expect((await listTools(forever.token)).status).toBe(200);
  });

  it('counts the requests a minute per token, not per user', async () => {
    const first = await create(['--user', CAROL]);
    const second = await create(['--user', CAROL]);
    for (let i = 0; i < 3; i++) expect((await listTools(first.token)).status).toBe(200);
    expect((await listTools(first.token)).status).toBe(429);
    expect((await listTools(second.token)).status).toBe(200);
  });

  it('refuses what it cannot issue, saying what to write', async () => {
    const cases: [string[], RegExp][] = [
      [['create'], /--user is required/],
      [['create', '--user', 'U0 CAROL'], /--user is required: the chat user id/],
      [['create', '--user', STRANGER], new RegExp(`${STRANGER} is not an admin, owner or approver of any team`)],
      [['create', '--user', CAROL, '--expires', '0d'], /--expires is a number of days from 1 to 3650 such as 90d, or never/],
      [['create', '--user', CAROL, '--expires', '99999d'], /--expires is a number of days/],
      [['create', '--user', CAROL, '--expires', '3 months'], /--expires is a number of days/],
      [['create', '--user', CAROL, '--name', 'x'.repeat(81)], /--name is one line of plain text/],
      [['revoke'], /revoke takes the token id/],
      [['revoke', 'mt_nosuchtoken'], /no token "mt_nosuchtoken"/],
      [['rotate'], /unknown token action "rotate": create, list or revoke/],
    ];
    for (const [args, message] of cases) {
      const result = await tokenCli(args);
      expect(result.code, args.join(' ')).not.toBe(0);
      expect(result.err, args.join(' ')).toMatch(message);
    }
  });
});
