import type { Logger } from 'pino';

/** Credentials whose shape is known: Slack tokens, bearer tokens, secrets in query strings and URLs. */
const SECRETS: [RegExp, string][] = [
  [/\bx(?:ox[abeoprs]|app)-[A-Za-z0-9-]+/g, '[redacted]'],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]'],
  [/\b(token|password|secret|signature|sig|key|code)=[^&\s"']+/gi, '$1=[redacted]'],
  [/\/\/[^/\s:@]+:[^/\s@]+@/g, '//[redacted]@'],
];

/** Enough of a stack to find the place, not a wall of node internals. */
const STACK_LINES = 12;

export function redactSecrets(text: string): string {
  return SECRETS.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}

/** What a log line may say about something thrown: its kind, code, message and top of stack, redacted. */
export function describeThrown(thrown: unknown): Record<string, unknown> {
  if (!(thrown instanceof Error)) return { type: typeof thrown, message: redactSecrets(String(thrown)).slice(0, 500) };
  const code = (thrown as { code?: unknown }).code;
  return {
    type: thrown.name,
    message: redactSecrets(thrown.message).slice(0, 500),
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    ...(thrown.stack ? { stack: redactSecrets(thrown.stack.split('\n').slice(0, STACK_LINES).join('\n')) } : {}),
  };
}

/**
 * Keeps `burnrate serve` running through a bug: a promise rejected with nobody listening (often
 * inside a library, e.g. an async closure of Bolt's receiver) or an exception thrown from a
 * request's callback would otherwise end the process, and with it every team's alerts, for the
 * sake of one request. Each one is logged as an error with what was thrown (secrets redacted)
 * and the process goes on; the request it belonged to has failed on its own.
 *
 * Returns the function that removes the guard (for tests and for a serve that returns).
 */
export function installProcessGuard(log: Pick<Logger, 'error'>, proc: NodeJS.EventEmitter = process): () => void {
  const onRejection = (reason: unknown) => {
    log.error(
      { error: describeThrown(reason), event: 'unhandledRejection' },
      'unhandled promise rejection: logged, burnrate keeps running',
    );
  };
  const onException = (error: unknown, origin?: unknown) => {
    log.error({ error: describeThrown(error), event: 'uncaughtException', origin }, 'uncaught exception: logged, burnrate keeps running');
  };
  proc.on('unhandledRejection', onRejection);
  proc.on('uncaughtException', onException);
  return () => {
    proc.off('unhandledRejection', onRejection);
    proc.off('uncaughtException', onException);
  };
}
