import type Database from 'better-sqlite3';
import type { CloudBudget } from '../../domain/cloud-budget.js';
import { writeFreshness } from './source-freshness.js';
import type { CloudBudgetStore } from '../cloud-budgets.js';

export class SqliteCloudBudgetStore implements CloudBudgetStore {
  private readonly listStatement: Database.Statement<[], string>;
  private readonly replaceTransaction: (source: string, budgets: readonly CloudBudget[], now: Date) => void;

  constructor(db: Database.Database) {
    this.listStatement = db.prepare<[], string>('SELECT body FROM cloud_budgets ORDER BY origin, team, id').pluck();
    const remove = db.prepare('DELETE FROM cloud_budgets WHERE source = ?');
    const insert = db.prepare('INSERT INTO cloud_budgets (source, id, origin, team, body) VALUES (?, ?, ?, ?, ?)');
    this.replaceTransaction = db.transaction((source: string, budgets: readonly CloudBudget[], now: Date) => {
      remove.run(source);
      for (const b of budgets) insert.run(source, b.id, b.origin, b.team, JSON.stringify(b));
      writeFreshness(db, source, null, now);
    });
  }

  async replace(source: string, budgets: readonly CloudBudget[], now: Date): Promise<void> {
    this.replaceTransaction(source, budgets, now);
  }

  async list(): Promise<CloudBudget[]> {
    return this.listStatement.all().map((body) => JSON.parse(body) as CloudBudget);
  }
}
