import type { AuditEntry } from '../domain/audit.js';
import { ActionFailed, Refused, type Audited, type AuditRow } from '../domain/audit-outcome.js';
import type { AuditLog } from './audit-log.js';

export type AuditBase = Omit<AuditEntry, 'result'>;

/**
 * Runs a step and records its outcome in the audit log: the rows it returns, a refusal it throws
 * (`Refused`), or a failed side effect (`ActionFailed`). The one place that writes the audit rows
 * of buttons, and of the operations the slash commands and the automatic stop share with them.
 */
export async function runAudited<T>(log: AuditLog, base: AuditBase, step: () => Promise<Audited<T>>): Promise<T> {
  let outcome: Audited<T>;
  try {
    outcome = await step();
  } catch (error) {
    if (error instanceof Refused) {
      await record(log, base, { result: 'refused', detail: error.detail });
      throw error.error;
    }
    if (error instanceof ActionFailed) {
      for (const row of error.before) await record(log, base, row);
      await record(log, base, { result: 'failed', detail: error.detail });
      throw error.cause;
    }
    throw error;
  }
  const rows: readonly AuditRow[] =
    outcome.audit === null ? [] : Array.isArray(outcome.audit) ? outcome.audit : [outcome.audit as AuditRow];
  for (const row of rows) await record(log, base, row);
  return outcome.value;
}

function record(log: AuditLog, base: AuditBase, row: AuditRow): Promise<void> {
  return log.record({ ...base, result: row.result, ...(row.detail !== undefined ? { detail: row.detail } : {}) });
}
