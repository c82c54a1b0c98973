import type { FindingChange } from '../domain/finding-change.js';
import { enqueueOutbox } from './outbox-table.js';
import type { OutboxDraft } from './outbox-records.js';
import type { Session } from './session.js';
import { FINDING_FAMILIES, type FindingTable, type FindingTables } from './store.js';
import { applyTrackedChange, type TrackedRules } from './tracked-findings.js';

/**
 * How each table of findings takes a run's changes: a budget finding is 'new' until seen again; an
 * instance idle again keeps when it was first seen; an anomaly keeps the answer its team gave
 * between runs (a run's finding carries none) and was last seen when it resolved (seenSince).
 */
const RULES: { [T in FindingTable]: TrackedRules<FindingTables[T]> } = {
  findings: { family: FINDING_FAMILIES.findings, subjectOf: (f) => f.period, firstSeen: 'restarts', openedAs: 'new' },
  gpuFindings: { family: FINDING_FAMILIES.gpuFindings, subjectOf: (f) => f.instanceId, firstSeen: 'kept' },
  sweepFindings: { family: FINDING_FAMILIES.sweepFindings, subjectOf: (f) => f.sweep, firstSeen: 'restarts' },
  anomalyFindings: {
    family: FINDING_FAMILIES.anomalyFindings,
    subjectOf: (f) => f.started,
    firstSeen: 'restarts',
    keep: (stored, seen) => (stored.answer ? { ...seen, answer: stored.answer } : seen),
    seenUntilResolved: true,
  },
};

/**
 * Store.recordRun. Runs of one table take turns under a lock: when every finding the run opens is
 * already open, another process (a second replica, or the check run twice at once) recorded the
 * same run between this one's read and its write, and has queued its alerts; they are not queued again.
 */
export async function recordRun<T extends FindingTable>(
  db: Session,
  table: T,
  change: FindingChange<FindingTables[T]>,
  alerts: OutboxDraft[],
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.lock(`burnrate record ${table}`);
    // Distinct ids: a finding named twice is one row to find open.
    const opened = [...new Set(change.opened.map((f) => f.id))];
    const d = tx.dialect;
    const alreadyOpen =
      opened.length === 0
        ? []
        : await tx.rows(`SELECT 1 FROM check_findings WHERE family = ? AND ${d.inList('id')} AND state != 'resolved'`, [
            FINDING_FAMILIES[table],
            d.list(opened),
          ]);
    const recordedElsewhere = opened.length > 0 && alreadyOpen.length === opened.length;
    await applyTrackedChange(tx, RULES[table], change, now);
    if (!recordedElsewhere) await enqueueOutbox(tx, alerts, now);
  });
}
