import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { packageVersion } from '../config/package-version.js';
import type { Deps } from '../deps.js';
import { isBurnrateError } from '../domain/errors.js';
import type { AuditEntry } from '../domain/audit.js';
import { callerOf } from './mcp-caller.js';
import { recordCall } from './audit-call.js';
import { watchRefusedArguments } from './refused-arguments.js';
import { MCP_TOOLS } from './tools/index.js';
import type { McpTool } from './tools/tool.js';
import { registerPrompts } from './mcp-prompts.js';
import { registerResources } from './mcp-resources.js';

const INSTRUCTIONS =
  "burnrate answers cost questions about cloud and GPU spend with the figures its chat commands and CLI give, for the teams the user may see in chat. Amounts are in the answer's currency. propose_action asks the team in its chat channel; it never acts by itself.";

export interface McpServerOptions {
  /** Run before every call: throws (a BurnrateError) once the caller's token is revoked or expired. */
  stillAllowed?: () => Promise<void>;
}

/**
 * An MCP server acting as one chat user: every tool runs with that user's roles and teams, read
 * afresh for each call, and calls the same read models and commands as chat and the CLI.
 */
export function createMcpServer(deps: Deps, userId: string, options: McpServerOptions = {}): McpServer {
  const server = new McpServer({ name: 'burnrate', version: packageVersion() }, { instructions: INSTRUCTIONS });
  for (const tool of MCP_TOOLS) {
    const readOnly = tool.readOnly !== false;
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        outputSchema: outputSchemaOf(tool),
        annotations: { readOnlyHint: readOnly, destructiveHint: false, idempotentHint: readOnly, openWorldHint: false },
      },
      (args: Record<string, unknown>) => callTool(deps, userId, tool, args, options),
    );
  }
  registerPrompts(server);
  registerResources(server, deps, userId, options.stillAllowed);
  return server;
}

/**
 * Connects a server made by createMcpServer to its transport, auditing also the calls whose
 * arguments the SDK refuses before the tool runs (a hostile or confused client is what an audit is for).
 */
export async function connectAudited(deps: Deps, userId: string, server: McpServer, transport: Transport): Promise<void> {
  await server.connect(transport);
  watchRefusedArguments(transport, (tool, args, why) => recordCall(deps, { userId, tool, args, result: 'refused', outcome: why }));
}

/**
 * One call: run as the user, answered with the figures and the chat answer's text, and audited
 * (the tool, its arguments, the user, the outcome), reads included: never a token, tokens are not
 * arguments. A refusal says what to do instead; any other failure is logged and answered with a
 * reference only, never its message.
 */
async function callTool(
  deps: Deps,
  userId: string,
  tool: McpTool,
  args: Record<string, unknown>,
  options: McpServerOptions,
): Promise<CallToolResult> {
  deps.log.info({ tool: tool.name, user: userId, args }, 'mcp tool call');
  const audit = (result: AuditEntry['result'], outcome?: string) =>
    recordCall(deps, { userId, tool: tool.name, args, result, ...(outcome ? { outcome } : {}) });
  try {
    await options.stillAllowed?.();
    const answer = await tool.run(callerOf(deps, userId), args);
    await audit('ok');
    return { content: [{ type: 'text', text: answer.summary }], structuredContent: answer.data };
  } catch (error) {
    if (isBurnrateError(error)) {
      await audit('refused', error.message);
      return { isError: true, content: [{ type: 'text', text: error.describe() }] };
    }
    const reference = randomUUID().slice(0, 8);
    deps.log.error({ err: (error as Error).message, stack: (error as Error).stack, tool: tool.name, reference }, 'mcp tool failed');
    await audit('failed', `reference ${reference}`);
    return { isError: true, content: [{ type: 'text', text: `burnrate could not answer (reference ${reference}); its log says why.` }] };
  }
}

/**
 * The answer's documented fields; further fields the CLI's JSON carries (data freshness, warnings)
 * are allowed, so the answer stays exactly the CLI's.
 */
function outputSchemaOf(tool: McpTool) {
  return z.looseObject(Object.fromEntries(Object.entries(tool.output).map(([key, what]) => [key, z.unknown().optional().describe(what)])));
}
