import type { CloudBudget } from '../domain/cloud-budget.js';
import type { Session } from './session.js';
import { writeFreshness } from './source-freshness.js';

const COLUMNS = (['source', 'id', 'origin', 'team', 'body'] as const).map((name) => ({ name, type: 'text' as const }));

export class SqlCloudBudgetStore {
  constructor(private readonly db: Session) {}

  /** Replaces everything `source` listed before, and records its freshness, in one transaction. */
  async replace(source: string, budgets: readonly CloudBudget[], now: Date): Promise<void> {
    await this.db.transaction(async (tx) => {
      // Two replicas listing the same source at once: the second waits, then replaces the first's rows.
      await tx.lock(`burnrate cloud budgets ${source}`);
      await tx.run('DELETE FROM cloud_budgets WHERE source = ?', [source]);
      await tx.insertRows(
        'cloud_budgets',
        COLUMNS,
        budgets.map((b) => [source, b.id, b.origin, b.team, JSON.stringify(b)]),
      );
      await writeFreshness(tx, source, null, now);
    });
  }

  async list(): Promise<CloudBudget[]> {
    const rows = await this.db.rows<{ body: string }>(
      `SELECT body FROM cloud_budgets ORDER BY ${this.db.dialect.order('origin', 'team', 'id')}`,
    );
    return rows.map((r) => JSON.parse(r.body) as CloudBudget);
  }
}
