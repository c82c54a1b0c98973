import type { AuditEntry } from '../domain/audit.js';
import type { Session } from './session.js';

type AuditRow = Omit<AuditEntry, 'at'> & { id: number; at: string };

/** Append-only record of every mutation made from chat. */
export class SqlAuditLog {
  constructor(private readonly db: Session) {}

  async record(entry: AuditEntry): Promise<void> {
    await this.db.run('INSERT INTO audit_log (at, platform, user_id, action, subject, result, detail) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      entry.at.toISOString(),
      entry.platform,
      entry.userId,
      entry.action,
      entry.subject,
      entry.result,
      entry.detail ?? null,
    ]);
  }

  async list(limit = 100): Promise<(AuditEntry & { id: number })[]> {
    const rows = await this.db.rows<AuditRow>(
      'SELECT id, at, platform, user_id AS "userId", action, subject, result, detail FROM audit_log ORDER BY id DESC LIMIT ?',
      [limit],
    );
    return rows.map((r) => ({ ...r, at: new Date(r.at), detail: r.detail ?? null }));
  }

  /** What was done to one subject (a finding id) from `since` on, oldest first. */
  async about(subject: string, since: Date): Promise<(AuditEntry & { id: number })[]> {
    const rows = await this.db.rows<AuditRow>(
      'SELECT id, at, platform, user_id AS "userId", action, subject, result, detail FROM audit_log WHERE subject = ? AND at >= ? ORDER BY id',
      [subject, since.toISOString()],
    );
    return rows.map((r) => ({ ...r, at: new Date(r.at), detail: r.detail ?? null }));
  }
}
