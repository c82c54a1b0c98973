import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** How the SDK words the answer to arguments its input schema refuses, before any tool runs ("MCP error -32602: Input validation error: …"). */
const REFUSED = /^(MCP error -32602: )?Input validation error/;

/**
 * Watches a connected transport for tool calls whose arguments the SDK refused by the tool's input
 * schema (a wrong type, a value out of bounds): the tool never runs, so this is where such a call
 * is seen, to be audited like every other. Reads the messages only; changes none.
 */
export function watchRefusedArguments(
  transport: Transport,
  onRefused: (tool: string, args: Record<string, unknown>, why: string) => Promise<void>,
): void {
  const calls = new Map<string | number, { tool: string; args: Record<string, unknown> }>();
  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if ('method' in message && message.method === 'tools/call' && 'id' in message) {
      const params = (message.params ?? {}) as { name?: unknown; arguments?: unknown };
      const args = params.arguments && typeof params.arguments === 'object' ? (params.arguments as Record<string, unknown>) : {};
      calls.set(message.id, { tool: String(params.name), args });
    }
    receive?.(message, extra);
  };
  const send = transport.send.bind(transport);
  // The refusal is audited before it is answered, as every other call is.
  transport.send = async (message: JSONRPCMessage, options) => {
    const id = 'id' in message ? message.id : undefined;
    const call = id === undefined ? undefined : calls.get(id);
    if (call && id !== undefined) {
      calls.delete(id);
      const result = 'result' in message ? (message.result as { isError?: boolean; content?: { type: string; text?: string }[] }) : null;
      const text = result?.isError ? (result.content?.[0]?.text ?? '') : '';
      if (REFUSED.test(text)) await onRefused(call.tool, call.args, text);
    }
    return send(message, options);
  };
}
