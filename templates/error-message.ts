import type { Message } from './message.js';

/** A problem told to one user: what is wrong, then what to do about it. */
export function errorMessage(problem: string, hint?: string): Message {
  return {
    summary: problem,
    blocks: [{ type: 'text', text: problem }, ...(hint ? [{ type: 'context' as const, text: hint }] : [])],
  };
}
