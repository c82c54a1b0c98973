import type Database from 'better-sqlite3';
import type { AuditEntry } from '../../domain/audit.js';
import type { AuditLog } from '../audit-log.js';

type AuditRow = Omit<AuditEntry, 'at'> & { id: number; at: string };

/** Append-only record of every mutation made from chat. */
export class SqliteAuditLog implements AuditLog {
  private readonly recordStatement: Database.Statement<[string, string, string, string, string, string, string | null]>;
  private readonly listStatement: Database.Statement<[number], AuditRow>;

  constructor(db: Database.Database) {
    this.recordStatement = db.prepare(
      'INSERT INTO audit_log (at, platform, user_id, action, subject, result, detail) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.listStatement = db.prepare(
      'SELECT id, at, platform, user_id AS userId, action, subject, result, detail FROM audit_log ORDER BY id DESC LIMIT ?',
    );
  }

  async record(entry: AuditEntry): Promise<void> {
    this.recordStatement.run(
      entry.at.toISOString(),
      entry.platform,
      entry.userId,
      entry.action,
      entry.subject,
      entry.result,
      entry.detail ?? null,
    );
  }

  async list(limit = 100): Promise<(AuditEntry & { id: number })[]> {
    return this.listStatement.all(limit).map((r) => ({ ...r, at: new Date(r.at), detail: r.detail ?? null }));
  }
}
