import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAROL, STRANGER } from '../support/demo-org.js';
import { cli } from '../support/run-cli.js';

const BIN = fileURLToPath(new URL('../../bin/burnrate.js', import.meta.url));
const NOW = '2026-11-21T09:00:00Z';

let dir: string;
let db: string;
let client: Client;
let stderr = '';

/** `burnrate mcp` as an assistant starts it: the compiled binary, spoken to by the SDK's own stdio client. */
async function spawnMcp(as: { user: string } | { token: string }): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...('user' in as ? ['--user', as.user] : []), '--db', db],
    cwd: dir,
    // Only what it needs: no cloud credentials from the developer's shell, the clock pinned as the CLI's.
    env: {
      PATH: process.env.PATH ?? '',
      LOG_LEVEL: 'error',
      BURNRATE_NOW: NOW,
      AWS_EC2_METADATA_DISABLED: 'true',
      METADATA_SERVER_DETECTION: 'none',
      ...('token' in as ? { BURNRATE_MCP_TOKEN: as.token } : {}),
    },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const mcp = new Client({ name: 'burnrate-stdio-test', version: '1.0.0' });
  await mcp.connect(transport);
  return mcp;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'burnrate-mcp-stdio-'));
  db = join(dir, 'burnrate.db');
  expect((await cli(['demo', '--db', db], { cwd: dir, now: NOW })).code).toBe(0);
  client = await spawnMcp({ user: CAROL });
}, 60_000);

afterAll(async () => {
  await client?.close();
});

describe('burnrate mcp over stdio', () => {
  it('lists the tools and answers with the figures `burnrate spend --json` gives', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('spend');
    const result = (await client.callTool({ name: 'spend', arguments: { team: 'llm-training', by: 'service' } })) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const fromCli = await cli(['spend', '--team', 'llm-training', '--by', 'service', '--json', '--db', db], { cwd: dir, now: NOW });
    expect(result.structuredContent).toEqual(JSON.parse(fromCli.out));
    expect((result.structuredContent as { total: { billed: number } }).total.billed).toBeGreaterThan(0);
  });

  it("refuses another team's figures, as chat does for that user", async () => {
    const result = (await client.callTool({ name: 'spend', arguments: { team: 'ml-research' } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      expect.objectContaining({ text: expect.stringContaining('you are not a member of team "ml-research"') }),
    ]);
    expect(stderr).toBe('');
  });

  it('will not start without a user, or for someone with no role', async () => {
    const none = await cli(['mcp', '--db', db], { cwd: dir, now: NOW });
    expect(none.code).toBe(2);
    expect(none.err).toContain('--user is required');
    const stranger = await cli(['mcp', '--user', STRANGER, '--db', db], { cwd: dir, now: NOW });
    expect(stranger.code).toBe(2);
    expect(stranger.err).toContain(`${STRANGER} is not an admin, owner or approver of any team`);
  });

  it('acts as the user of an issued token in BURNRATE_MCP_TOKEN, and refuses every call once it is revoked', async () => {
    const created = await cli(['mcp', 'token', 'create', '--user', CAROL, '--json', '--db', db], { cwd: dir, now: NOW });
    const { token, id } = JSON.parse(created.out) as { token: string; id: string };
    const assistant = await spawnMcp({ token });
    try {
      const spend = (await assistant.callTool({ name: 'spend', arguments: {} })) as CallToolResult;
      expect((spend.structuredContent as { teams: string[] }).teams).toEqual(['llm-training']);
      await cli(['mcp', 'token', 'revoke', id, '--db', db], { cwd: dir, now: NOW });
      const after = (await assistant.callTool({ name: 'spend', arguments: {} })) as CallToolResult;
      expect(after.isError).toBe(true);
      expect(after.content).toEqual([expect.objectContaining({ text: expect.stringContaining(`this token (${id}) was revoked`) })]);
      await expect(assistant.readResource({ uri: 'burnrate://teams' })).rejects.toThrow(`this token (${id}) was revoked`);
    } finally {
      await assistant.close();
    }
    const refused = await cli(['mcp', '--db', db], { cwd: dir, now: NOW, env: { BURNRATE_MCP_TOKEN: token } });
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(`BURNRATE_MCP_TOKEN is refused: this token (${id}) was revoked`);
    expect(refused.err).not.toContain(token);
  });
});
