import type { FindingChange } from '../../domain/finding-change.js';
import type { OutboxDraft } from '../outbox-records.js';
import { FINDING_TABLES, type FindingTable, type FindingTables } from '../store.js';
import { lockFor, type PgDb } from './pg-db.js';
import { applyPgFindingChange } from './pg-findings.js';
import { applyPgGpuFindingChange } from './pg-gpu-findings.js';
import { enqueuePgOutbox } from './pg-outbox.js';
import type { PgSession } from './pg-session.js';
import { applyPgSweepFindingChange } from './pg-sweep-findings.js';

/** How each table of findings takes a run's changes. */
const APPLY_CHANGE: { [T in FindingTable]: (tx: PgSession, change: FindingChange<FindingTables[T]>, now: Date) => Promise<void> } = {
  findings: applyPgFindingChange,
  gpuFindings: applyPgGpuFindingChange,
  sweepFindings: applyPgSweepFindingChange,
};

/**
 * Store.recordRun on Postgres: the findings and their alerts in one transaction. Runs of one table
 * take turns under a lock, so when two replicas run the same check at once the second sees the
 * first's findings open, knows its alerts are queued, and queues none.
 */
export async function recordRun<T extends FindingTable>(
  db: PgDb,
  table: T,
  change: FindingChange<FindingTables[T]>,
  alerts: OutboxDraft[],
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    await lockFor(tx, `burnrate record ${table}`);
    // Distinct ids: a finding named twice is one row to find open, as SQLite's every-id check counts it.
    const opened = [...new Set(change.opened.map((f) => f.id))];
    const alreadyOpen =
      opened.length === 0
        ? []
        : await tx.rows(`SELECT 1 FROM ${FINDING_TABLES[table]} WHERE id = ANY($1::text[]) AND state != 'resolved'`, [opened]);
    const recordedElsewhere = opened.length > 0 && alreadyOpen.length === opened.length;
    await APPLY_CHANGE[table](tx, change, now);
    if (!recordedElsewhere) await enqueuePgOutbox(tx, alerts, now);
  });
}
