import type Database from 'better-sqlite3';
import type { KubeUsageRow } from '../domain/kube-usage.js';
import type { Period } from '../domain/period.js';

export interface KubeUsageStore {
  /** When the cluster was last sampled; null before the first sample. */
  lastSample(cluster: string): Promise<Date | null>;
  /** Adds a sample's rows and moves the cluster's sample time to `at`, together. */
  record(cluster: string, at: Date, rows: readonly KubeUsageRow[]): Promise<void>;
  /** Every row of the period's days. */
  rows(period: Period): Promise<KubeUsageRow[]>;
}

export class SqliteKubeUsageStore implements KubeUsageStore {
  private readonly last: Database.Statement<[string], string>;
  private readonly inPeriod: Database.Statement<[string, string], KubeUsageRow>;
  private readonly write: (cluster: string, at: Date, rows: readonly KubeUsageRow[]) => void;

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
    const stamp = db.prepare(
      'INSERT INTO kube_usage_samples (cluster, at) VALUES (?, ?) ON CONFLICT (cluster) DO UPDATE SET at = excluded.at',
    );
    this.write = db.transaction((cluster: string, at: Date, rows: readonly KubeUsageRow[]) => {
      for (const row of rows) add.run(row);
      stamp.run(cluster, at.toISOString());
    });
  }

  async lastSample(cluster: string): Promise<Date | null> {
    const at = this.last.get(cluster);
    return at ? new Date(at) : null;
  }

  async record(cluster: string, at: Date, rows: readonly KubeUsageRow[]): Promise<void> {
    this.write(cluster, at, rows);
  }

  async rows(period: Period): Promise<KubeUsageRow[]> {
    return this.inPeriod.all(period.start, period.end);
  }
}
