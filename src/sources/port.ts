import type { UnitCostsConfig } from '../config/schema.js';
import type { CloudBudget } from '../domain/cloud-budget.js';
import type { SpendBatch } from '../domain/spend.js';

/** What a source is given when it pulls: the time, and how tag values map to teams. */
export interface PullContext {
  now: Date;
  tagKeys: readonly string[];
  /** Tag keys of the experiment, run and sweep a cost belongs to (unit costs); none read when absent. */
  unitTagKeys?: UnitTagKeys;
  resolveTeam: (ownerTag: string | null | undefined) => string;
  /** Reports progress of long pulls (rows or bytes done of total), e.g. for a TTY progress bar. */
  onProgress?: (done: number, total: number) => void;
  /** How far a source's stored data reaches (ISO, exclusive), so API sources pull only what is missing. */
  dataThrough?: (source: string) => string | null;
}

/**
 * A spend source returns normalised daily rows; nothing else. Each batch replaces its scope in the
 * store, so pulling the same period twice is harmless.
 */
export interface SpendSource {
  readonly id: string;
  readonly type: string;
  pull(ctx: PullContext): Promise<SpendBatch[]>;
}

export type UnitTagKeys = UnitCostsConfig['tagKeys'];

/** Budgets defined in a cloud's own budget service. Each listing replaces the source's previous one. */
export interface BudgetSource {
  /** The id its freshness and failures are recorded under, e.g. `aws:budgets`. */
  readonly id: string;
  readonly origin: CloudBudget['origin'];
  listBudgets(ctx: PullContext): Promise<CloudBudget[]>;
}
