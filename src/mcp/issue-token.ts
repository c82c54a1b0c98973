import { randomBytes } from 'node:crypto';
import type { McpTokenRecord } from '../domain/mcp-token.js';
import type { Store } from '../store/store.js';
import { tokenHash } from './mcp-tokens.js';

/** Marks a string as a burnrate MCP token, so secret scanners and people can tell one when they see it. */
export const TOKEN_PREFIX = 'brmcp_';

/**
 * Issues a token for `userId`: 32 random bytes, shown once (the return value) and stored only as
 * its SHA-256, with a short public id to list and revoke it by.
 */
export async function issueToken(
  store: Pick<Store, 'mcpTokens'>,
  request: { userId: string; name: string; expiresAt: Date | null; now: Date },
): Promise<{ token: string; record: McpTokenRecord }> {
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const record: McpTokenRecord = {
    id: `mt_${randomBytes(6).toString('hex')}`,
    userId: request.userId,
    name: request.name,
    createdAt: request.now,
    expiresAt: request.expiresAt,
    revokedAt: null,
  };
  await store.mcpTokens.add(record, tokenHash(token));
  return { token, record };
}
