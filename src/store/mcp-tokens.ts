import type { McpTokenRecord } from '../domain/mcp-token.js';
import { dateOrNull, type Session } from './session.js';

type TokenRow = { id: string; userId: string; name: string; createdAt: string; expiresAt: string | null; revokedAt: string | null };

const COLUMNS = 'id, user_id AS "userId", name, created_at AS "createdAt", expires_at AS "expiresAt", revoked_at AS "revokedAt"';

const tokenOf = (row: TokenRow): McpTokenRecord => ({
  ...row,
  createdAt: new Date(row.createdAt),
  expiresAt: dateOrNull(row.expiresAt),
  revokedAt: dateOrNull(row.revokedAt),
});

/** The MCP tokens `burnrate mcp token create` issued, each kept by its hash only. */
export class SqlMcpTokenStore {
  constructor(private readonly db: Session) {}

  /** Keeps a new token by its SHA-256 (hex); refused when the id or the hash is taken. */
  async add(t: McpTokenRecord, tokenHash: string): Promise<void> {
    await this.db.run(
      'INSERT INTO mcp_tokens (id, user_id, name, token_hash, created_at, expires_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [
        t.id,
        t.userId,
        t.name,
        tokenHash,
        t.createdAt.toISOString(),
        t.expiresAt?.toISOString() ?? null,
        t.revokedAt?.toISOString() ?? null,
      ],
    );
  }

  /** The token whose SHA-256 this is, revoked and expired ones included; null for none. */
  async byHash(tokenHash: string): Promise<McpTokenRecord | null> {
    const row = await this.db.one<TokenRow>(`SELECT ${COLUMNS} FROM mcp_tokens WHERE token_hash = ?`, [tokenHash]);
    return row ? tokenOf(row) : null;
  }

  /** Every token issued, newest first. */
  async list(): Promise<McpTokenRecord[]> {
    const rows = await this.db.rows<TokenRow>(`SELECT ${COLUMNS} FROM mcp_tokens ORDER BY created_at DESC, ${this.db.dialect.bytes('id')}`);
    return rows.map(tokenOf);
  }

  /** Revokes a token from `at` on; the token as it now stands (revoked earlier: unchanged), null for an unknown id. */
  async revoke(id: string, at: Date): Promise<McpTokenRecord | null> {
    await this.db.run('UPDATE mcp_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [at.toISOString(), id]);
    const row = await this.db.one<TokenRow>(`SELECT ${COLUMNS} FROM mcp_tokens WHERE id = ?`, [id]);
    return row ? tokenOf(row) : null;
  }
}
