import type { FindingChange } from '../domain/finding-change.js';
import type { SpendBatch } from '../domain/spend.js';
import type { ImportOptions, ImportSummary } from '../domain/spend-import.js';
import type { Leadership, LeadershipOptions } from './leadership.js';
import type { OutboxDraft } from './outbox-records.js';
import type { FindingTable, FindingTables } from './finding-families.js';
import type { StoreTables } from './store-tables.js';

export { FINDING_FAMILIES, type FindingFamily, type FindingTable, type FindingTables } from './finding-families.js';

// The store: each table's contract and its one implementation (store/<table>.ts), over the embedded
// SQLite file or a Postgres database several replicas share (assemble-store.ts); records in domain/.

export interface Store extends StoreTables {
  /** Which store this is, for logs: a file path, or a Postgres URL without its password. */
  readonly location: string;
  /** Whether replicas share it (Postgres): then what one process remembers, the others must see. */
  readonly shared: boolean;
  /** Resolves once the database is reachable and migrated; rejects with what is wrong. */
  ready(): Promise<void>;
  /** Starts competing for the scheduler's lead (always won by the one process of a SQLite file). */
  competeForLeadership(options?: LeadershipOptions): Leadership;
  /**
   * Writes batches of spend and their sources' freshness in one transaction: all or nothing.
   * Batches of file exports (scope.parts) replace only their own parts, and are refused when they
   * would shrink a billing period's spend by more than half, unless options.replacePeriod.
   */
  importBatches(batches: SpendBatch[], now?: Date, options?: ImportOptions): Promise<ImportSummary>;
  /**
   * Records a check run in one transaction: the findings' new states in the check's table and the
   * alerts to send. A crash can therefore never leave a finding marked as alerted without its alert queued.
   */
  recordRun<T extends FindingTable>(table: T, change: FindingChange<FindingTables[T]>, alerts: OutboxDraft[], now: Date): Promise<void>;
  isEmpty(): Promise<boolean>;
  close(): Promise<void>;
}
