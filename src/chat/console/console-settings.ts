import { createHash, timingSafeEqual } from 'node:crypto';
import { isLoopback } from '../../http/loopback.js';
import { BurnrateError } from '../../domain/errors.js';

/** Shorter tokens can be guessed by anyone who can reach the port; 16 characters of hex is 64 bits. */
export const MIN_TOKEN_LENGTH = 16;

export interface ConsoleSettings {
  enabled: boolean;
  /** Required on every console request when set (always set when listening beyond loopback). */
  token: string | null;
  /** Listening on loopback only: then requests must also name a loopback host (DNS rebinding). */
  loopback: boolean;
}

/**
 * The console's rules, from CONSOLE, CONSOLE_TOKEN and the address serve listens on:
 *   - CONSOLE=on or off decides; unset, the console is on when no chat platform is configured,
 *     so `npm start` on a fresh clone has something to show;
 *   - beyond loopback, anyone who can reach the port could act as any configured user, so a
 *     token is required, and its absence stops serve at start rather than exposing the console.
 */
export function readConsoleSettings(env: NodeJS.ProcessEnv, options: { chatConfigured: boolean; host: string }): ConsoleSettings {
  const mode = env.CONSOLE?.trim().toLowerCase() ?? '';
  if (!['', 'on', 'off'].includes(mode)) {
    throw new BurnrateError(
      'burnrate_console_invalid',
      `CONSOLE must be "on" or "off", got "${env.CONSOLE}"`,
      'Unset CONSOLE to turn the console on only when no chat platform is configured.',
      2,
    );
  }
  const enabled = mode === 'on' || (mode === '' && !options.chatConfigured);
  const token = env.CONSOLE_TOKEN?.trim() || null;
  const loopback = isLoopback(options.host);
  if (!enabled) return { enabled, token, loopback };
  if (token !== null && token.length < MIN_TOKEN_LENGTH) {
    throw new BurnrateError(
      'burnrate_console_token_short',
      `CONSOLE_TOKEN is ${token.length} characters; the console needs at least ${MIN_TOKEN_LENGTH}`,
      'Use a long random value, e.g. the output of `openssl rand -hex 32`.',
      2,
    );
  }
  if (!loopback && token === null) {
    throw new BurnrateError(
      'burnrate_console_token_required',
      `the console would listen on ${options.host}, reachable from other machines, without a token`,
      'Set CONSOLE_TOKEN to a long random value (e.g. `openssl rand -hex 32`), or listen on HOST=127.0.0.1, or turn the console off with CONSOLE=off.',
      2,
    );
  }
  return { enabled, token, loopback };
}

/** Compares in constant time; hashing first gives both sides the same length whatever was sent. */
export function tokenMatches(given: string | null | undefined, expected: string): boolean {
  if (typeof given !== 'string' || given.length === 0) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
