import type { AuditEntry } from './audit.js';
import type { BurnrateError } from './errors.js';

/** One audit row of an outcome: the result, and a detail replacing the step's own when given. */
export interface AuditRow {
  result: AuditEntry['result'];
  detail?: string | null;
}

/** What an audited step came to: the rows to record (none for a read) and its value. */
export interface Audited<T> {
  audit: AuditRow | readonly AuditRow[] | null;
  value: T;
}

/**
 * A refusal: the step said no before doing anything. The audit step records it (with `detail`,
 * or the step's own detail when undefined) and the person is told `error`.
 */
export class Refused extends Error {
  constructor(
    readonly error: BurnrateError,
    readonly detail?: string | null,
  ) {
    super(error.message);
    this.name = 'Refused';
  }
}

/**
 * A side effect that failed: the audit step records `before` (rows of what was done first) and a
 * `failed` row with `detail`, then rethrows `cause` unchanged.
 */
export class ActionFailed extends Error {
  constructor(
    readonly detail: string,
    override readonly cause: unknown,
    readonly before: readonly AuditRow[] = [],
  ) {
    super(detail);
    this.name = 'ActionFailed';
  }
}
