import type { Deps } from '../deps.js';
import { tokenEnded } from '../domain/mcp-token.js';
import { tokenHash, type McpTokens } from './mcp-tokens.js';

/** Who a bearer token acts as, and the key its requests are counted under; or why it is refused. */
export type TokenCheck = { ok: true; user: string; rateKey: string } | { ok: false; why: string };

/**
 * Every token burnrate accepts: those of BURNRATE_MCP_TOKENS, access tokens of the configured OAuth
 * authorization server, and those `burnrate mcp token create` issued.
 */
export interface BearerTokens {
  check(token: string): Promise<TokenCheck>;
  /** How many BURNRATE_MCP_TOKENS holds (issued tokens are counted by `burnrate mcp token list`). */
  readonly fromEnv: number;
}

/** An OAuth access token's user, or why it is refused. */
export type AccessTokenCheck = { ok: true; user: string } | { ok: false; why: string };

/** A JWT is three base64url parts; burnrate's own tokens are not: the two are told apart before any lookup. */
export const looksLikeJwt = (token: string) => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token);

/** What a request without a token, or with one burnrate does not know, is told. */
export const NO_TOKEN = 'a bearer token from BURNRATE_MCP_TOKENS is required, or one that `burnrate mcp token create` issued';

/**
 * Checks a token on every request against the store, so that a token revoked or expired a moment
 * ago is refused by every replica at once; a revoked or expired token is told so, an unknown one
 * is not told anything more.
 */
export function bearerTokens(
  deps: Pick<Deps, 'store' | 'clock'>,
  fromEnv: McpTokens | null,
  oauth: ((token: string) => Promise<AccessTokenCheck>) | null = null,
): BearerTokens {
  return {
    fromEnv: fromEnv?.size ?? 0,
    async check(token) {
      const envUser = fromEnv?.userOf(token);
      if (envUser) return { ok: true, user: envUser, rateKey: `env:${envUser}` };
      if (oauth && looksLikeJwt(token)) {
        // A person's access tokens change every hour: their requests are counted together.
        const checked = await oauth(token);
        return checked.ok ? { ...checked, rateKey: `oauth:${checked.user}` } : checked;
      }
      const issued = await deps.store.mcpTokens.byHash(tokenHash(token));
      if (!issued) return { ok: false, why: NO_TOKEN };
      const ended = tokenEnded(issued, deps.clock());
      if (ended) return { ok: false, why: `this token (${issued.id}) was ${ended}: ask for a new one (burnrate mcp token create)` };
      return { ok: true, user: issued.userId, rateKey: issued.id };
    },
  };
}
