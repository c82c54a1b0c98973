import type { AuditEntry } from '../domain/audit.js';
import type { Deps } from '../deps.js';
import { MCP_PLATFORM } from './mcp-caller.js';

/** An audit row's detail stays a line: arguments are bounded by their schemas (refused ones are not), this bounds the sum. */
const MAX_DETAIL = 600;
const MAX_SUBJECT = 128;

/** The audit log's name for a tool call: `mcp.spend`, `mcp.propose_action`. */
export const auditActionOf = (tool: string) => `mcp.${tool}`;

/**
 * One row per tool call in the audit log, reads included: who asked (platform `mcp`), which tool,
 * about what (the team, instance or proposal asked about; "your teams" without one), the
 * arguments as JSON and the outcome. A refusal's or failure's reason follows the arguments.
 */
export async function recordCall(
  deps: Pick<Deps, 'store' | 'clock' | 'log'>,
  call: { userId: string; tool: string; args: Record<string, unknown>; result: AuditEntry['result']; outcome?: string },
): Promise<void> {
  const about = call.args.team ?? call.args.instance ?? call.args.id ?? call.args.figure;
  const detail = `${JSON.stringify(call.args)}${call.outcome ? ` — ${call.outcome}` : ''}`;
  try {
    await deps.store.audit.record({
      at: deps.clock(),
      platform: MCP_PLATFORM,
      userId: call.userId,
      action: auditActionOf(call.tool),
      subject: typeof about === 'string' ? bounded(about, MAX_SUBJECT) : 'your teams',
      result: call.result,
      detail: bounded(detail, MAX_DETAIL),
    });
  } catch (error) {
    // The answer is already computed; a store that cannot take the row is logged, not hidden.
    deps.log.error({ err: (error as Error).message, tool: call.tool, user: call.userId }, 'mcp call not audited');
  }
}

const bounded = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
