import type Database from 'better-sqlite3';
import type { InstanceActionRecord } from '../../domain/instance-action.js';
import type { SavingEntry } from '../../domain/saving.js';
import { savingInsert } from './savings-ledger.js';
import type { InstanceActionStore } from '../instance-actions.js';

interface ActionRow {
  findingId: string;
  action: string;
  instanceId: string;
  byUser: string;
  at: string;
  outcome: string | null;
  detail: string | null;
}

const COLUMNS = 'finding_id AS findingId, action, instance_id AS instanceId, by_user AS byUser, at, outcome, detail';

export class SqliteInstanceActionStore implements InstanceActionStore {
  private readonly claimStatement: Database.Statement<[string, string, string, string, string]>;
  private readonly completeStatement: Database.Statement<[string, string, string, string]>;
  private readonly completeWithSavings: (
    findingId: string,
    action: string,
    outcome: string,
    detail: string,
    savings: readonly SavingEntry[],
  ) => void;
  private readonly releaseStatement: Database.Statement<[string, string]>;
  private readonly getStatement: Database.Statement<[string, string], ActionRow>;

  constructor(db: Database.Database) {
    this.claimStatement = db.prepare(
      'INSERT INTO instance_actions (finding_id, action, instance_id, by_user, at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (finding_id, action) DO NOTHING',
    );
    this.completeStatement = db.prepare('UPDATE instance_actions SET outcome = ?, detail = ? WHERE finding_id = ? AND action = ?');
    const insertSaving = savingInsert(db);
    this.completeWithSavings = db.transaction((findingId, action, outcome, detail, savings) => {
      this.completeStatement.run(outcome, detail, findingId, action);
      for (const entry of savings) insertSaving(entry);
    });
    this.releaseStatement = db.prepare('DELETE FROM instance_actions WHERE finding_id = ? AND action = ?');
    this.getStatement = db.prepare(`SELECT ${COLUMNS} FROM instance_actions WHERE finding_id = ? AND action = ?`);
  }

  async claim(record: Omit<InstanceActionRecord, 'outcome' | 'detail'>): Promise<{ record: InstanceActionRecord; first: boolean }> {
    // One synchronous statement: of two concurrent clicks exactly one inserts.
    const inserted =
      this.claimStatement.run(record.findingId, record.action, record.instanceId, record.byUser, record.at.toISOString()).changes === 1;
    const stored = await this.get(record.findingId, record.action);
    return { record: stored ?? { ...record, outcome: null, detail: null }, first: inserted };
  }

  async complete(findingId: string, action: string, outcome: string, detail: string, savings: readonly SavingEntry[] = []): Promise<void> {
    this.completeWithSavings(findingId, action, outcome, detail, savings);
  }

  async release(findingId: string, action: string): Promise<void> {
    this.releaseStatement.run(findingId, action);
  }

  async get(findingId: string, action: string): Promise<InstanceActionRecord | null> {
    const row = this.getStatement.get(findingId, action);
    return row ? { ...row, at: new Date(row.at) } : null;
  }
}
