import type { InstanceActionRecord } from '../domain/instance-action.js';
import type { SavingEntry } from '../domain/saving.js';
import { insertSaving } from './savings-ledger.js';
import type { Session } from './session.js';

type ActionRow = Omit<InstanceActionRecord, 'at'> & { at: string };

const COLUMNS = 'finding_id AS "findingId", action, instance_id AS "instanceId", by_user AS "byUser", at, outcome, detail';

export class SqlInstanceActionStore {
  constructor(private readonly db: Session) {}

  /** Inserts the row unless one exists: `first` says whether this caller may act; else the existing row. */
  async claim(record: Omit<InstanceActionRecord, 'outcome' | 'detail'>): Promise<{ record: InstanceActionRecord; first: boolean }> {
    // One insert: of concurrent clicks, on any replica, exactly one inserts; the others insert nothing.
    const inserted =
      (await this.db.run(
        'INSERT INTO instance_actions (finding_id, action, instance_id, by_user, at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (finding_id, action) DO NOTHING',
        [record.findingId, record.action, record.instanceId, record.byUser, record.at.toISOString()],
      )) === 1;
    const stored = await this.get(record.findingId, record.action);
    return { record: stored ?? { ...record, outcome: null, detail: null }, first: inserted };
  }

  /** Records the outcome and, in the same transaction, what it is expected to save (a stop's ledger entries). */
  async complete(findingId: string, action: string, outcome: string, detail: string, savings: readonly SavingEntry[] = []): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run('UPDATE instance_actions SET outcome = ?, detail = ? WHERE finding_id = ? AND action = ?', [
        outcome,
        detail,
        findingId,
        action,
      ]);
      for (const entry of savings) await insertSaving(tx, entry);
    });
  }

  /** Drops a claim whose action did nothing (dry run, refused, failed, busy again), so it can be tried again. */
  async release(findingId: string, action: string): Promise<void> {
    await this.db.run('DELETE FROM instance_actions WHERE finding_id = ? AND action = ?', [findingId, action]);
  }

  async get(findingId: string, action: string): Promise<InstanceActionRecord | null> {
    const row = await this.db.one<ActionRow>(`SELECT ${COLUMNS} FROM instance_actions WHERE finding_id = ? AND action = ?`, [
      findingId,
      action,
    ]);
    return row ? { ...row, at: new Date(row.at) } : null;
  }
}
