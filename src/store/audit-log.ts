import type { AuditEntry } from '../domain/audit.js';

export interface AuditLog {
  record(entry: AuditEntry): Promise<void>;
  list(limit?: number): Promise<(AuditEntry & { id: number })[]>;
}
