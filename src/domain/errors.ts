/**
 * An error a user can act on: a stable code, what went wrong, and what to do next.
 * Anything else that escapes is a bug and is reported without its stack to chat users.
 */
export class BurnrateError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly hint?: string,
    /** 2 for usage errors (bad arguments, bad config), 1 for runtime failures. */
    readonly exitCode: 1 | 2 = 2,
  ) {
    super(message);
    this.name = 'BurnrateError';
  }

  /** One or two lines for a terminal or a chat message. */
  describe(): string {
    return this.hint ? `${this.message}\n${this.hint}` : this.message;
  }
}

export function isBurnrateError(error: unknown): error is BurnrateError {
  return error instanceof BurnrateError;
}
