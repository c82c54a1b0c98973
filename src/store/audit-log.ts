import type Database from 'better-sqlite3';
import type { AuditEntry, AuditLog } from './store.js';

/** Append-only record of every mutation made from chat. */
export class SqliteAuditLog implements AuditLog {
  constructor(private readonly db: Database.Database) {}

  async record(entry: AuditEntry): Promise<void> {
    this.db
      .prepare('INSERT INTO audit_log (at, platform, user_id, action, subject, result, detail) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(entry.at.toISOString(), entry.platform, entry.userId, entry.action, entry.subject, entry.result, entry.detail ?? null);
  }

  async list(limit = 100): Promise<(AuditEntry & { id: number })[]> {
    const rows = this.db
      .prepare('SELECT id, at, platform, user_id AS userId, action, subject, result, detail FROM audit_log ORDER BY id DESC LIMIT ?')
      .all(limit) as (Omit<AuditEntry, 'at'> & { id: number; at: string })[];
    return rows.map((r) => ({ ...r, at: new Date(r.at), detail: r.detail ?? null }));
  }
}
