import type { CloudBudget } from '../../domain/cloud-budget.js';
import type { CloudBudgetStore } from '../cloud-budgets.js';
import { sqliteOrder } from './pg-collation.js';
import { lockFor, type PgDb } from './pg-db.js';
import { writeFreshness } from './pg-source-freshness.js';

export class PgCloudBudgetStore implements CloudBudgetStore {
  constructor(private readonly db: PgDb) {}

  async replace(source: string, budgets: readonly CloudBudget[], now: Date): Promise<void> {
    await this.db.transaction(async (tx) => {
      // Two replicas listing the same source at once: the second waits, then replaces the first's rows.
      await lockFor(tx, `burnrate cloud budgets ${source}`);
      await tx.run('DELETE FROM cloud_budgets WHERE source = $1', [source]);
      await tx.run(
        `INSERT INTO cloud_budgets (source, id, origin, team, body)
         SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[])`,
        [source, budgets.map((b) => b.id), budgets.map((b) => b.origin), budgets.map((b) => b.team), budgets.map((b) => JSON.stringify(b))],
      );
      await writeFreshness(tx, source, null, now);
    });
  }

  async list(): Promise<CloudBudget[]> {
    const rows = await this.db.rows<{ body: string }>(`SELECT body FROM cloud_budgets ORDER BY ${sqliteOrder('origin', 'team', 'id')}`);
    return rows.map((r) => JSON.parse(r.body) as CloudBudget);
  }
}
