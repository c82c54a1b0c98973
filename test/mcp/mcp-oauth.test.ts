import { mkdtempSync } from 'node:fs';
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
import { mcpEndpoint } from '../../src/mcp/mcp-http.js';
import { readMcpOAuth } from '../../src/mcp/oauth/oauth-settings.js';
import { demoConfig } from '../../src/providers/demo/demo-config.js';
import { startFakeIssuer, type FakeIssuer } from '../fakes/fake-oauth-issuer.js';
import { CAROL } from '../support/demo-org.js';
import { testDeps } from '../support/deps.js';
import { cli } from '../support/run-cli.js';
import { errorOf } from '../support/error-of.js';

const NOW = '2026-11-21T09:00:00Z';
const NOW_S = Date.parse(NOW) / 1000;

let issuer: FakeIssuer;
let deps: Deps;
let server: Server;
let resource: string;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'burnrate-mcp-oauth-'));
  const db = join(dir, 'burnrate.db');
  expect((await cli(['demo', '--db', db], { cwd: dir, now: NOW })).code).toBe(0);
  deps = testDeps(demoConfig(), NOW, db).deps;
  issuer = await startFakeIssuer();
  // The resource is burnrate's /mcp as clients reach it; the port is known only once listening, so
  // the server's routes are built for a resource URL on a port reserved first.
  const probe = await startHttpServer({ host: '127.0.0.1', port: 0, routes: new Map(), health: health() });
  const port = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  resource = `http://127.0.0.1:${port}/mcp`;
  const oauth = readMcpOAuth({ BURNRATE_MCP_OAUTH_ISSUER: issuer.issuer, BURNRATE_MCP_RESOURCE: resource });
  server = await startHttpServer({ host: '127.0.0.1', port, routes: await mcpEndpoint(deps, null, oauth), health: health() });
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await issuer?.close();
  await deps?.store.close();
});

function health() {
  return { alive: () => true, ready: async () => ({ ok: true, checks: {} }) };
}

const base = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

/** Claims of an access token the issuer gives Carol for burnrate, valid for an hour from NOW. */
const carolClaims = (overrides: Record<string, unknown> = {}) => ({
  iss: issuer.issuer,
  aud: resource,
  sub: CAROL,
  iat: NOW_S - 60,
  exp: NOW_S + 3600,
  ...overrides,
});

const listTools = (token: string) =>
  fetch(`${base()}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });

describe('MCP over HTTP with OAuth 2.1', () => {
  it('publishes its protected resource metadata and points refused clients to it', async () => {
    const metadata = await fetch(`${base()}/.well-known/oauth-protected-resource/mcp`);
    expect(await metadata.json()).toEqual({
      resource,
      authorization_servers: [issuer.issuer],
      bearer_methods_supported: ['header'],
      resource_name: 'burnrate',
    });
    expect(await (await fetch(`${base()}/.well-known/oauth-protected-resource`)).json()).toMatchObject({ resource });
    const refused = await fetch(`${base()}/mcp`, { method: 'POST', body: '{}' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer realm="burnrate", resource_metadata="${base()}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  it("answers the SDK's client as the user the issuer's access token names, with that user's teams", async () => {
    const token = await issuer.sign(carolClaims());
    const client = new Client({ name: 'burnrate-oauth-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base()}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    const spend = (await client.callTool({ name: 'spend', arguments: {} })) as CallToolResult;
    expect((spend.structuredContent as { teams: string[] }).teams).toEqual(['llm-training']);
    await client.close();
    const audited = (await deps.store.audit.list(5)).find((a) => a.action === 'mcp.spend');
    expect(audited).toMatchObject({ platform: 'mcp', userId: CAROL, result: 'ok' });
    // The keys are read once and kept, not fetched for every request.
    expect(issuer.jwksReads()).toBe(1);
  });

  it('refuses a token for another audience, of another issuer, expired, signed by an unpublished key or naming no user', async () => {
    const cases: [Promise<string>, string][] = [
      [issuer.sign(carolClaims({ aud: 'https://other.example.com/mcp' })), "the access token's aud claim is not for this server"],
      [issuer.sign(carolClaims({ iss: 'https://login.example.com' })), "the access token's iss claim is not for this server"],
      [issuer.sign(carolClaims({ exp: NOW_S - 3600 })), 'the access token has expired'],
      [issuer.sign(carolClaims(), { foreignKey: true }), 'the access token is not signed by the configured authorization server'],
      [issuer.sign(carolClaims({ sub: 'Carol <script>' })), "the access token's sub claim is not a chat user id"],
    ];
    for (const [signed, why] of cases) {
      const response = await listTools(await signed);
      expect(response.status, why).toBe(401);
      expect(await response.json()).toEqual({ error: why });
    }
    // An unsigned token ("alg": "none") is refused like a forged one.
    const [header, payload] = (await issuer.sign(carolClaims())).split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${payload}.${header}`;
    expect((await listTools(none)).status).toBe(401);
  });

  it('refuses settings that would send tokens in clear or name no resource', () => {
    expect(readMcpOAuth({})).toBeNull();
    const cases: [NodeJS.ProcessEnv, RegExp][] = [
      [{ BURNRATE_MCP_OAUTH_ISSUER: 'http://login.example.com' }, /BURNRATE_MCP_OAUTH_ISSUER must be an https URL/],
      [{ BURNRATE_MCP_OAUTH_ISSUER: 'https://login.example.com' }, /BURNRATE_MCP_RESOURCE must be an https URL/],
      [
        {
          BURNRATE_MCP_OAUTH_ISSUER: 'https://login.example.com',
          BURNRATE_MCP_RESOURCE: 'https://b.example.com/mcp',
          BURNRATE_MCP_OAUTH_USER_CLAIM: 'a b',
        },
        /BURNRATE_MCP_OAUTH_USER_CLAIM is not a claim name/,
      ],
    ];
    for (const [env, message] of cases) expect(errorOf(() => readMcpOAuth(env)).message).toMatch(message);
  });
});
