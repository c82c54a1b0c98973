import type { InstanceActionRecord } from '../../domain/instance-action.js';
import type { SavingEntry } from '../../domain/saving.js';
import type { InstanceActionStore } from '../instance-actions.js';
import type { PgDb } from './pg-db.js';
import { insertSaving } from './pg-savings-ledger.js';

type ActionRow = Omit<InstanceActionRecord, 'at'> & { at: string };

const COLUMNS = 'finding_id AS "findingId", action, instance_id AS "instanceId", by_user AS "byUser", at, outcome, detail';

export class PgInstanceActionStore implements InstanceActionStore {
  constructor(private readonly db: PgDb) {}

  async claim(record: Omit<InstanceActionRecord, 'outcome' | 'detail'>): Promise<{ record: InstanceActionRecord; first: boolean }> {
    // One insert: of concurrent clicks, on any replica, exactly one inserts; the others wait for it and insert nothing.
    const inserted =
      (await this.db.run(
        'INSERT INTO instance_actions (finding_id, action, instance_id, by_user, at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (finding_id, action) DO NOTHING',
        [record.findingId, record.action, record.instanceId, record.byUser, record.at.toISOString()],
      )) === 1;
    const stored = await this.get(record.findingId, record.action);
    return { record: stored ?? { ...record, outcome: null, detail: null }, first: inserted };
  }

  async complete(findingId: string, action: string, outcome: string, detail: string, savings: readonly SavingEntry[] = []): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run('UPDATE instance_actions SET outcome = $1, detail = $2 WHERE finding_id = $3 AND action = $4', [
        outcome,
        detail,
        findingId,
        action,
      ]);
      for (const entry of savings) await insertSaving(tx, entry);
    });
  }

  async release(findingId: string, action: string): Promise<void> {
    await this.db.run('DELETE FROM instance_actions WHERE finding_id = $1 AND action = $2', [findingId, action]);
  }

  async get(findingId: string, action: string): Promise<InstanceActionRecord | null> {
    const row = await this.db.one<ActionRow>(`SELECT ${COLUMNS} FROM instance_actions WHERE finding_id = $1 AND action = $2`, [
      findingId,
      action,
    ]);
    return row ? { ...row, at: new Date(row.at) } : null;
  }
}
