import { PERIOD_SYNTAX } from '../src/domain/period.js';
import type { Message } from '../templates/message.js';
import type { CommandSpec } from './command.js';

/** The help verb. The registry passes its verb list in, read when the verb runs (after the list is built). */
export function helpCommand(commands: () => readonly CommandSpec[]): CommandSpec {
  return {
    verb: 'help',
    usage: '/burnrate help',
    example: '/burnrate help',
    summary: 'what burnrate can answer',
    run: async () => helpText(commands(), null),
  };
}

export function helpText(commands: readonly CommandSpec[], problem: string | null): Message {
  return {
    summary: problem ?? 'burnrate commands',
    blocks: [
      ...(problem
        ? [{ type: 'text' as const, text: `${problem} Here is what burnrate understands:` }]
        : [{ type: 'header' as const, text: 'burnrate commands' }]),
      {
        type: 'table',
        columns: [{ label: 'Command' }, { label: 'What it answers' }, { label: 'For example' }],
        rows: commands.map((c) => [c.usage, c.summary, c.example]),
      },
      { type: 'context', text: `Periods: ${PERIOD_SYNTAX} (a range's second day is included).` },
    ],
  };
}
