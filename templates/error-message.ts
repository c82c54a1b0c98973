import type { Message } from './message.js';

/** A problem told to one user: what is wrong, then what to do about it. */
export function errorMessage(problem: string, hint?: string): Message {
  return {
    summary: problem,
    blocks: [{ type: 'text', text: problem }, ...(hint ? [{ type: 'context' as const, text: hint }] : [])],
  };
}

/** Something failed on burnrate's side: no detail for the user, a reference to find it in the log. */
export function internalErrorMessage(reference: string): Message {
  return errorMessage('Something went wrong on our side.', `Try again in a minute; if it keeps failing, give your admin reference ${reference}.`);
}

/** Commands are arriving faster than burnrate answers them: this one was not run. */
export function busyMessage(): Message {
  return errorMessage('burnrate has more commands than it can answer right now, so it did not run this one.', 'Nothing was changed. Try again in a minute.');
}
