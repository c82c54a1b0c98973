import type { UnitCostsConfig } from '../config/schema.js';

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

export type UnitTagKeys = UnitCostsConfig['tagKeys'];
