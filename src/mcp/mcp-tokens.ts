import { createHash, timingSafeEqual } from 'node:crypto';
import { BurnrateError } from '../domain/errors.js';

/** A token shorter than this is guessable: refused when the tokens are read, before anything listens. */
export const MIN_TOKEN_LENGTH = 32;

/** The user each MCP token acts as, keyed by the token's SHA-256: the tokens themselves are not kept. */
export interface McpTokens {
  /** The user id the bearer token stands for; null for an unknown token. */
  userOf(token: string): string | null;
  readonly size: number;
}

const USAGE_HINT =
  'Write BURNRATE_MCP_TOKENS as USER_ID=TOKEN pairs separated by commas, e.g. U0CAROL=<32+ random characters>,U0DAN=<another>; `openssl rand -hex 32` makes a token.';

/**
 * Reads BURNRATE_MCP_TOKENS (`U0CAROL=token,U0DAN=token`): the environment is the only place a
 * token comes from. A malformed entry, a short token or a token given twice is refused with what to
 * write instead, never echoed (the message names the entry by its position and user only).
 */
export function readMcpTokens(env: NodeJS.ProcessEnv): McpTokens | null {
  const text = env.BURNRATE_MCP_TOKENS?.trim();
  if (!text) return null;
  const byHash = new Map<string, string>();
  text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .forEach((entry, index) => {
      const at = entry.indexOf('=');
      const user = at > 0 ? entry.slice(0, at).trim() : '';
      const token = at > 0 ? entry.slice(at + 1).trim() : '';
      const where = `entry ${index + 1}${user ? ` (${user})` : ''} of BURNRATE_MCP_TOKENS`;
      if (!/^[A-Za-z0-9._@:-]{1,128}$/.test(user) || token === '')
        throw new BurnrateError('burnrate_mcp_tokens_invalid', `${where} is not USER_ID=TOKEN`, USAGE_HINT);
      if (token.length < MIN_TOKEN_LENGTH || /\s/.test(token))
        throw new BurnrateError(
          'burnrate_mcp_tokens_invalid',
          `${where} has a token shorter than ${MIN_TOKEN_LENGTH} characters or with spaces`,
          USAGE_HINT,
        );
      const hash = tokenHash(token);
      if (byHash.has(hash)) throw new BurnrateError('burnrate_mcp_tokens_invalid', `${where} repeats another entry's token`, USAGE_HINT);
      byHash.set(hash, user);
    });
  if (byHash.size === 0) return null;
  const hashes = [...byHash.entries()].map(([hash, user]) => ({ digest: Buffer.from(hash, 'hex'), user }));
  return {
    size: hashes.length,
    userOf(token) {
      const digest = Buffer.from(tokenHash(token), 'hex');
      // Every entry compared in constant time: how long an answer takes says nothing about the tokens.
      let found: string | null = null;
      for (const entry of hashes) if (timingSafeEqual(entry.digest, digest)) found = entry.user;
      return found;
    },
  };
}

/** A token's SHA-256 in hex: all burnrate keeps of a token, in memory or in the store. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
