import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAROL } from '../support/demo-org.js';
import { cli } from '../support/run-cli.js';
import { startServe, type ServeProcess } from '../support/serve-process.js';

const NOW = '2026-11-21T09:00:00Z';
const TOKEN = 'serve-test-carol-token-0123456789abcdef';

let serve: ServeProcess;

beforeAll(async () => {
  serve = await startServe({ BURNRATE_MCP_TOKENS: `${CAROL}=${TOKEN}`, BURNRATE_NOW: NOW });
}, 90_000);

afterAll(async () => {
  await serve?.stop();
});

describe('/mcp on burnrate serve', () => {
  it("answers the SDK's client on serve's one HTTP server with the CLI's figures, and never prints the token", async () => {
    expect(serve.out()).toContain(`mcp: http://127.0.0.1:${serve.port}/mcp for 1 token (BURNRATE_MCP_TOKENS)`);
    const client = new Client({ name: 'burnrate-serve-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${serve.port}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    );
    expect((await client.listTools()).tools.length).toBeGreaterThan(5);
    const result = (await client.callTool({ name: 'spend', arguments: { by: 'service' } })) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    await client.close();
    const db = join(serve.cwd, 'data/burnrate.db');
    const fromCli = await cli(['spend', '--team', 'llm-training', '--by', 'service', '--json', '--db', db], { cwd: serve.cwd, now: NOW });
    expect(result.structuredContent).toEqual(JSON.parse(fromCli.out));
    expect(serve.out() + serve.err()).not.toContain(TOKEN);
  });

  it('refuses a request without the token', async () => {
    const response = await fetch(`http://127.0.0.1:${serve.port}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
  });

  it('will not start with a token too short to be safe', async () => {
    const result = await cli(['serve', '--port', '0'], { env: { BURNRATE_MCP_TOKENS: `${CAROL}=secret` } });
    expect(result.code).toBe(2);
    expect(result.err).toContain('shorter than 32 characters');
    expect(result.err).not.toContain('secret');
  });
});
