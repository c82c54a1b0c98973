import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { BurnrateError } from '../domain/errors.js';
import type { Deps } from '../deps.js';
import { bearerTokens } from '../mcp/bearer-tokens.js';
import { requireSomeRole } from '../mcp/mcp-caller.js';
import { connectAudited, createMcpServer, type McpServerOptions } from '../mcp/mcp-server.js';
import { runtimeOf } from './runtime-of.js';
import { COMMON_OPTIONS, parseVerbArgs, usageError } from './args.js';
import { HELP_PAGES } from './help-pages.js';
import { listenForStop } from './stop-signal.js';
import type { Verb } from './io.js';

const USAGE = HELP_PAGES.mcp.usage;

/**
 * An MCP server on stdin/stdout for a local assistant, acting as one chat user:
 *   1. `burnrate mcp token …` manages tokens instead (mcp-token.ts)
 *   2. read --user (or BURNRATE_MCP_USER), or the issued token in BURNRATE_MCP_TOKEN
 *   3. open the runtime with its chat platforms (a proposal is posted to the team's channel); refuse
 *      a user with no role in burnrate.yml, or a token unknown, revoked or expired
 *   4. answer on stdio until the client closes stdin or the process is stopped; a token revoked or
 *      expired meanwhile refuses every call after
 * stdout carries the protocol only: logs go to stderr.
 */
export const mcpVerb: Verb = async (args, io) => {
  if (args[0] === 'token') return (await import('./mcp-token.js')).mcpTokenVerb(args.slice(1), io);
  const { values } = parseVerbArgs(args, { ...COMMON_OPTIONS, user: { type: 'string' } }, USAGE);
  const token = io.env.BURNRATE_MCP_TOKEN?.trim() ?? '';
  const named = (values.user ?? (token ? '' : io.env.BURNRATE_MCP_USER) ?? '').trim();
  if (named && token) throw usageError('give --user or BURNRATE_MCP_TOKEN, not both: a token names its user', USAGE);
  if (!named && !token)
    throw usageError('--user is required: the chat user id the assistant acts as (or set BURNRATE_MCP_USER or BURNRATE_MCP_TOKEN)', USAGE);
  if (named && !/^[A-Za-z0-9._@:-]{1,128}$/.test(named))
    throw usageError(`--user must be a chat user id such as U0DEMOCAROL, got "${named}"`, USAGE);
  const runtime = await runtimeOf(values, io);
  try {
    const { deps } = runtime;
    await deps.store.ready();
    const { user, options } = named ? { user: named, options: {} } : await tokenUser(deps, token);
    requireSomeRole(deps, user);
    const server = createMcpServer(deps, user, options);
    const stop = listenForStop(() => {});
    // The client ends the session by closing our stdin (or the transport closes on a broken pipe).
    const closed = new Promise<void>((resolve) => {
      server.server.onclose = resolve;
      process.stdin.once('end', resolve);
    });
    await connectAudited(deps, user, server, new StdioServerTransport());
    await Promise.race([closed, stop.received]);
    stop.release();
    await server.close();
    return 0;
  } finally {
    await runtime.close();
  }
};

/** The user of an issued token, and a check before every call that it still holds. */
async function tokenUser(deps: Deps, token: string): Promise<{ user: string; options: McpServerOptions }> {
  const tokens = bearerTokens(deps, null);
  const refused = (why: string) =>
    new BurnrateError(
      'burnrate_mcp_token_refused',
      `BURNRATE_MCP_TOKEN is refused: ${why}`,
      'Ask an admin for a token: burnrate mcp token create --user USER_ID.',
    );
  const first = await tokens.check(token);
  if (!first.ok) throw refused(first.why);
  return {
    user: first.user,
    options: {
      async stillAllowed() {
        const now = await tokens.check(token);
        if (!now.ok) throw refused(now.why);
      },
    },
  };
}
