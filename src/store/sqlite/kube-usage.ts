import type Database from 'better-sqlite3';
import type { KubeUsageRow, PoolSample } from '../../domain/kube-usage.js';
import type { Period } from '../../domain/period.js';
import { attributeKubeCost } from './kube-attribution.js';
import { rebuildTeamDays } from './spend-team-days.js';
import { spanOfDays } from '../spend-team-days.js';
import type { KubeUsageStore } from '../kube-usage.js';

export class SqliteKubeUsageStore implements KubeUsageStore {
  private readonly last: Database.Statement<[string], string>;
  private readonly inPeriod: Database.Statement<[string, string], KubeUsageRow>;
  private readonly write: (cluster: string, at: Date, rows: readonly KubeUsageRow[], pools: readonly PoolSample[]) => void;
  private readonly pools: Database.Statement<[string, string], Omit<PoolSample, 'at'> & { at: string }>;

  constructor(db: Database.Database) {
    this.last = db.prepare<[string], string>('SELECT at FROM kube_usage_samples WHERE cluster = ?').pluck();
    this.inPeriod = db.prepare(
      `SELECT day, cluster, node, node_instance_id AS nodeInstanceId, node_hourly AS nodeHourly, namespace, workload, team,
              node_hours AS nodeHours
       FROM kube_gpu_usage WHERE day >= ? AND day < ? ORDER BY day, cluster, node, namespace, workload`,
    );
    const add = db.prepare(
      `INSERT INTO kube_gpu_usage (day, cluster, node, node_instance_id, node_hourly, namespace, workload, team, node_hours)
       VALUES (@day, @cluster, @node, @nodeInstanceId, @nodeHourly, @namespace, @workload, @team, @nodeHours)
       ON CONFLICT (day, cluster, node, namespace, workload) DO UPDATE SET
         node_hours = node_hours + excluded.node_hours, node_hourly = excluded.node_hourly,
         node_instance_id = excluded.node_instance_id, team = excluded.team`,
    );
    const addPool = db.prepare(
      `INSERT OR REPLACE INTO kube_pool_samples (cluster, pool, manager, at, hours, nodes, gpus, requested, hourly)
       VALUES (@cluster, @pool, @manager, @at, @hours, @nodes, @gpus, @requested, @hourly)`,
    );
    this.pools = db.prepare(
      `SELECT cluster, pool, manager, at, hours, nodes, gpus, requested, hourly FROM kube_pool_samples
       WHERE at >= ? AND at < ? ORDER BY cluster, pool, at`,
    );
    const stamp = db.prepare(
      'INSERT INTO kube_usage_samples (cluster, at) VALUES (?, ?) ON CONFLICT (cluster) DO UPDATE SET at = excluded.at',
    );
    this.write = db.transaction((cluster: string, at: Date, rows: readonly KubeUsageRow[], pools: readonly PoolSample[]) => {
      for (const row of rows) add.run(row);
      for (const pool of pools) addPool.run({ ...pool, at: pool.at.toISOString() });
      stamp.run(cluster, at.toISOString());
      // New shares of the days sampled: their bill lines move to the workloads' teams anew.
      const span = spanOfDays(rows.map((r) => r.day));
      if (span) {
        attributeKubeCost(db, span);
        rebuildTeamDays(db, span);
      }
    });
  }

  async lastSample(cluster: string): Promise<Date | null> {
    const at = this.last.get(cluster);
    return at ? new Date(at) : null;
  }

  async record(cluster: string, at: Date, rows: readonly KubeUsageRow[], pools: readonly PoolSample[]): Promise<void> {
    this.write(cluster, at, rows, pools);
  }

  async poolSamples(period: Period): Promise<PoolSample[]> {
    return this.pools.all(`${period.start}T00:00:00.000Z`, `${period.end}T00:00:00.000Z`).map((p) => ({ ...p, at: new Date(p.at) }));
  }

  async rows(period: Period): Promise<KubeUsageRow[]> {
    return this.inPeriod.all(period.start, period.end);
  }
}
