import type { InstanceActionRecord } from '../domain/instance-action.js';
import type { SavingEntry } from '../domain/saving.js';

export interface InstanceActionStore {
  /** Inserts the row unless one exists: `first` says whether this caller may act; else the existing row. */
  claim(record: Omit<InstanceActionRecord, 'outcome' | 'detail'>): Promise<{ record: InstanceActionRecord; first: boolean }>;
  /** Records the outcome and, in the same transaction, what it is expected to save (a stop's ledger entries). */
  complete(findingId: string, action: string, outcome: string, detail: string, savings?: readonly SavingEntry[]): Promise<void>;
  /** Drops a claim whose action did nothing (dry run, refused, failed, busy again), so it can be tried again. */
  release(findingId: string, action: string): Promise<void>;
  get(findingId: string, action: string): Promise<InstanceActionRecord | null>;
}
