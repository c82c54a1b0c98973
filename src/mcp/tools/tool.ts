import { z } from 'zod';
import type { CommandContext } from '../../../commands/command.js';
import { jsonText } from '../../domain/json-text.js';
import { renderPlainText } from '../../../templates/render/plain-text.js';
import type { Message } from '../../../templates/message.js';

/** What a tool answers: the figures as JSON (the CLI's `--json` shape) and the chat answer as plain text. */
export interface ToolAnswer {
  data: Record<string, unknown>;
  summary: string;
}

/**
 * One MCP tool: its input as a zod shape with bounds (the SDK refuses anything else before `run`),
 * the top-level fields of its answer, and what it runs as the calling user.
 */
export interface McpTool<S extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  input: S;
  /** The answer's top-level fields, each described: the output schema clients read. */
  output: Record<string, string>;
  /** false: it posts to a channel (a proposal); every other tool only reads. */
  readOnly?: false;
  run(caller: CommandContext, args: z.output<z.ZodObject<S>>): Promise<ToolAnswer>;
}

/** Declares a tool with its arguments' type taken from its input shape. */
export function defineTool<S extends z.ZodRawShape>(tool: McpTool<S>): McpTool<S> {
  return tool;
}

/** A team as a user types it: its id, name or one of its match values. */
export const teamArg = z
  .string()
  .trim()
  .min(1)
  .max(80)
  .regex(/^[\p{L}\p{N} ._@/-]+$/u, 'a team id or name: letters, digits, spaces and . _ @ / -')
  .optional()
  .describe('A team id or name; leave it out for every team you may see.');

/** A month as YYYY-MM. */
export const monthArg = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'a month as YYYY-MM, e.g. 2026-11')
  .optional()
  .describe('A month as YYYY-MM; leave it out for this month.');

/** The figures exactly as the CLI's `--json` writes them (money without binary noise), as a plain object. */
export function asJson(value: unknown): Record<string, unknown> {
  return JSON.parse(jsonText(value)) as Record<string, unknown>;
}

/** The chat answer of the same question, as plain text: what the assistant may quote. */
export function textOf(message: Message): string {
  return renderPlainText(message);
}
