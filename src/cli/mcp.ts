import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { BurnrateError } from '../domain/errors.js';
import { callerOf } from '../mcp/mcp-caller.js';
import { createMcpServer } from '../mcp/mcp-server.js';
import { runtimeOf } from './runtime-of.js';
import { COMMON_OPTIONS, parseVerbArgs, usageError } from './args.js';
import { HELP_PAGES } from './help-pages.js';
import { listenForStop } from './stop-signal.js';
import type { Verb } from './io.js';

const USAGE = HELP_PAGES.mcp.usage;

/**
 * An MCP server on stdin/stdout for a local assistant, acting as one chat user:
 *   1. read --user (or BURNRATE_MCP_USER) and refuse a user with no role in burnrate.yml
 *   2. open the runtime with its chat platforms (a proposal is posted to the team's channel)
 *   3. answer on stdio until the client closes stdin or the process is stopped
 * stdout carries the protocol only: logs go to stderr.
 */
export const mcpVerb: Verb = async (args, io) => {
  const { values } = parseVerbArgs(args, { ...COMMON_OPTIONS, user: { type: 'string' } }, USAGE);
  const user = (values.user ?? io.env.BURNRATE_MCP_USER ?? '').trim();
  if (!user) throw usageError('--user is required: the chat user id the assistant acts as (or set BURNRATE_MCP_USER)', USAGE);
  if (!/^[A-Za-z0-9._@:-]{1,128}$/.test(user)) throw usageError(`--user must be a chat user id such as U0DEMOCAROL, got "${user}"`, USAGE);
  const runtime = await runtimeOf(values, io);
  try {
    const { deps } = runtime;
    await deps.store.ready();
    const caller = callerOf(deps, user);
    if (!caller.roles.admin && caller.visibleTeams.length === 0)
      throw new BurnrateError(
        'burnrate_mcp_user_unknown',
        `${user} is not an admin, owner or approver of any team in burnrate.yml`,
        'Give the id of someone with a role, or add them to a team.',
      );
    const server = createMcpServer(deps, user);
    const stop = listenForStop(() => {});
    // The client ends the session by closing our stdin (or the transport closes on a broken pipe).
    const closed = new Promise<void>((resolve) => {
      server.server.onclose = resolve;
      process.stdin.once('end', resolve);
    });
    await server.connect(new StdioServerTransport());
    await Promise.race([closed, stop.received]);
    stop.release();
    await server.close();
    return 0;
  } finally {
    await runtime.close();
  }
};
