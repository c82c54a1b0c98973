import type { AuditEntry } from '../../domain/audit.js';
import type { AuditLog } from '../audit-log.js';
import type { PgDb } from './pg-db.js';

type AuditRow = Omit<AuditEntry, 'at'> & { id: number; at: string };

export class PgAuditLog implements AuditLog {
  constructor(private readonly db: PgDb) {}

  async record(entry: AuditEntry): Promise<void> {
    await this.db.run(
      'INSERT INTO audit_log (at, platform, user_id, action, subject, result, detail) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [entry.at.toISOString(), entry.platform, entry.userId, entry.action, entry.subject, entry.result, entry.detail ?? null],
    );
  }

  async list(limit = 100): Promise<(AuditEntry & { id: number })[]> {
    const rows = await this.db.rows<AuditRow>(
      'SELECT id, at, platform, user_id AS "userId", action, subject, result, detail FROM audit_log ORDER BY id DESC LIMIT $1',
      [limit],
    );
    return rows.map((r) => ({ ...r, at: new Date(r.at), detail: r.detail ?? null }));
  }
}
