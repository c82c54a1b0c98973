/**
 * An MCP token issued by `burnrate mcp token create`: who it acts as and until when. The token
 * itself is shown once, when it is made; only its SHA-256 is stored.
 */
export interface McpTokenRecord {
  /** A short public id, for `burnrate mcp token list` and `revoke`: never enough to use the token. */
  id: string;
  userId: string;
  /** What its holder called it ("carol's laptop"), to tell tokens apart. */
  name: string;
  createdAt: Date;
  /** null: it does not expire. */
  expiresAt: Date | null;
  /** null while it is valid. */
  revokedAt: Date | null;
}

/** Why a token is no longer accepted at `now`, or null while it is. */
export function tokenEnded(token: McpTokenRecord, now: Date): 'revoked' | 'expired' | null {
  if (token.revokedAt && token.revokedAt <= now) return 'revoked';
  if (token.expiresAt && token.expiresAt <= now) return 'expired';
  return null;
}
