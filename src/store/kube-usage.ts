import type { FxRates } from '../domain/fx.js';
import type { KubeSplitCost, KubeUsageRow, PoolSample } from '../domain/kube-usage.js';
import { addDays, monthOf, type Period } from '../domain/period.js';
import { BILL_RATES_ONLY, KUBE_USAGE_COLUMNS, rederiveSpend } from './kube-attribution.js';
import { writePodSplits } from './kube-split-costs.js';
import type { Session } from './session.js';
import { spanOfDays } from './spend-team-days.js';

export class SqlKubeUsageStore {
  /** `fx`: burnrate.yml's rates, for node-days billed in several currencies (rederiveSpend). */
  constructor(
    private readonly db: Session,
    private readonly fx: FxRates = BILL_RATES_ONLY,
  ) {}

  /** When the cluster was last sampled; null before the first sample. */
  async lastSample(cluster: string): Promise<Date | null> {
    const row = await this.db.one<{ at: string }>('SELECT at FROM kube_usage_samples WHERE cluster = ?', [cluster]);
    return row ? new Date(row.at) : null;
  }

  /** Adds a sample's rows and pool figures and moves the cluster's sample time to `at`, together. */
  async record(cluster: string, at: Date, rows: readonly KubeUsageRow[], pools: readonly PoolSample[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      // Hours of a workload seen again add up; the rest is the latest.
      for (const r of rows)
        await tx.run(
          `INSERT INTO kube_gpu_usage (day, cluster, node, node_instance_id, node_hourly, namespace, workload, team, node_hours)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (day, cluster, node, namespace, workload) DO UPDATE SET
             node_hours = kube_gpu_usage.node_hours + excluded.node_hours, node_hourly = excluded.node_hourly,
             node_instance_id = excluded.node_instance_id, team = excluded.team`,
          [r.day, r.cluster, r.node, r.nodeInstanceId, r.nodeHourly, r.namespace, r.workload, r.team, r.nodeHours],
        );
      // A pool sampled again at the same time is replaced.
      for (const p of pools)
        await tx.run(
          `INSERT INTO kube_pool_samples (cluster, pool, manager, at, hours, nodes, gpus, requested, hourly) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (cluster, pool, at) DO UPDATE SET manager = excluded.manager, hours = excluded.hours, nodes = excluded.nodes,
             gpus = excluded.gpus, requested = excluded.requested, hourly = excluded.hourly`,
          [p.cluster, p.pool, p.manager, p.at.toISOString(), p.hours, p.nodes, p.gpus, p.requested, p.hourly],
        );
      await tx.run('INSERT INTO kube_usage_samples (cluster, at) VALUES (?, ?) ON CONFLICT (cluster) DO UPDATE SET at = excluded.at', [
        cluster,
        at.toISOString(),
      ]);
      // New shares of the days sampled: their bill lines move to the workloads' teams anew.
      await rederiveSpend(tx, spanOfDays(rows.map((r) => r.day)), this.fx);
    });
  }

  /** Every row of the period's days. */
  async rows(period: Period): Promise<KubeUsageRow[]> {
    return this.db.rows<KubeUsageRow>(
      `SELECT ${KUBE_USAGE_COLUMNS} FROM kube_gpu_usage WHERE day >= ? AND day < ? ORDER BY day, ${this.db.dialect.order('cluster', 'node', 'namespace', 'workload')}`,
      [period.start, period.end],
    );
  }

  /** Every pool sample taken in the period. */
  async poolSamples(period: Period): Promise<PoolSample[]> {
    const rows = await this.db.rows<Omit<PoolSample, 'at'> & { at: string }>(
      `SELECT cluster, pool, manager, at, hours, nodes, gpus, requested, hourly FROM kube_pool_samples
       WHERE at >= ? AND at < ? ORDER BY ${this.db.dialect.order('cluster', 'pool')}, at`,
      [`${period.start}T00:00:00.000Z`, `${period.end}T00:00:00.000Z`],
    );
    return rows.map((p) => ({ ...p, at: new Date(p.at) }));
  }

  /** Replaces what one import source's bill split over pods in these billing periods with `rows` (writePodSplits). */
  async replaceSplitCosts(source: string, billingPeriods: readonly string[], rows: readonly KubeSplitCost[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await writePodSplits(tx, { source, billingPeriods: [...billingPeriods] }, rows, false);
      // The bill's split of those months decides their workloads' shares anew.
      await rederiveSpend(
        tx,
        spanOfDays(billingPeriods.flatMap((m) => [monthOf(`${m}-01`).start, addDays(monthOf(`${m}-01`).end, -1)])),
        this.fx,
      );
    });
  }

  /** The bill's pod split of the period's days, every source. */
  async splitCosts(period: Period): Promise<KubeSplitCost[]> {
    return this.db.rows<KubeSplitCost>(
      `SELECT day, node_instance_id AS "nodeInstanceId", cluster, namespace, pod, billing_period AS "billingPeriod", currency,
              sum(split_cost) AS "splitCost"
       FROM kube_split_costs WHERE day >= ? AND day < ?
       GROUP BY day, node_instance_id, cluster, namespace, pod, billing_period, currency
       ORDER BY day, ${this.db.dialect.order('node_instance_id', 'cluster', 'namespace', 'pod', 'currency')}`,
      [period.start, period.end],
    );
  }
}
