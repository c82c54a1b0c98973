import type { Message } from './message.js';

/**
 * A reply only the user who clicked or typed sees: what happened (a problem, a refusal or a done
 * deed), then, when there is one, what to do next.
 */
export function privateReply(text: string, hint?: string): Message {
  return {
    summary: text,
    blocks: [{ type: 'text', text }, ...(hint ? [{ type: 'context' as const, text: hint }] : [])],
  };
}

/** Something failed on burnrate's side: no detail for the user, a reference to find it in the log. */
export function internalErrorMessage(reference: string): Message {
  return privateReply(
    'Something went wrong on our side.',
    `Try again in a minute; if it keeps failing, give your admin reference ${reference}.`,
  );
}

/** Commands are arriving faster than burnrate answers them: this one was not run. */
export function busyMessage(): Message {
  return privateReply(
    'burnrate has more commands than it can answer right now, so it did not run this one.',
    'Nothing was changed. Try again in a minute.',
  );
}
