import type { KubeUsageRow, PoolSample } from '../../domain/kube-usage.js';
import type { Period } from '../../domain/period.js';
import type { KubeUsageStore } from '../kube-usage.js';
import { spanOfDays } from '../spend-team-days.js';
import type { PgDb } from './pg-db.js';
import { attributeKubeCost } from './pg-kube-attribution.js';
import type { PgSession } from './pg-session.js';
import { rebuildTeamDays } from './pg-spend-team-days.js';
import { upsertRounds } from './pg-upsert-rounds.js';

/** A sample's rows, one statement per round: hours seen again add up, the rest is the latest. */
const ADD_USAGE = `
  INSERT INTO kube_gpu_usage (day, cluster, node, node_instance_id, node_hourly, namespace, workload, team, node_hours)
  SELECT day, cluster, node, "nodeInstanceId", "nodeHourly", namespace, workload, team, "nodeHours"
  FROM jsonb_to_recordset($1::jsonb) AS r (day text, cluster text, node text, "nodeInstanceId" text, "nodeHourly" double precision,
    namespace text, workload text, team text, "nodeHours" double precision)
  ON CONFLICT (day, cluster, node, namespace, workload) DO UPDATE SET
    node_hours = kube_gpu_usage.node_hours + excluded.node_hours, node_hourly = excluded.node_hourly,
    node_instance_id = excluded.node_instance_id, team = excluded.team`;

/** A sample's pool figures: a pool sampled again at the same time is replaced, as SQLite's INSERT OR REPLACE does. */
const ADD_POOLS = `
  INSERT INTO kube_pool_samples (cluster, pool, manager, at, hours, nodes, gpus, requested, hourly)
  SELECT cluster, pool, manager, at, hours, nodes, gpus, requested, hourly
  FROM jsonb_to_recordset($1::jsonb) AS p (cluster text, pool text, manager text, at text, hours double precision, nodes integer,
    gpus double precision, requested double precision, hourly double precision)
  ON CONFLICT (cluster, pool, at) DO UPDATE SET manager = excluded.manager, hours = excluded.hours, nodes = excluded.nodes,
    gpus = excluded.gpus, requested = excluded.requested, hourly = excluded.hourly`;

export class PgKubeUsageStore implements KubeUsageStore {
  constructor(private readonly db: PgDb) {}

  async lastSample(cluster: string): Promise<Date | null> {
    const row = await this.db.one<{ at: string }>('SELECT at FROM kube_usage_samples WHERE cluster = $1', [cluster]);
    return row ? new Date(row.at) : null;
  }

  async record(cluster: string, at: Date, rows: readonly KubeUsageRow[], pools: readonly PoolSample[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await upsertRounds(tx, ADD_USAGE, rows, (r) => [r.day, r.cluster, r.node, r.namespace, r.workload]);
      const poolRows = pools.map((p) => ({ ...p, at: p.at.toISOString() }));
      await upsertRounds(tx, ADD_POOLS, poolRows, (p) => [p.cluster, p.pool, p.at]);
      await tx.run('INSERT INTO kube_usage_samples (cluster, at) VALUES ($1, $2) ON CONFLICT (cluster) DO UPDATE SET at = excluded.at', [
        cluster,
        at.toISOString(),
      ]);
      // New shares of the days sampled: their bill lines move to the workloads' teams anew.
      await reattribute(tx, rows);
    });
  }

  async rows(period: Period): Promise<KubeUsageRow[]> {
    return this.db.rows<KubeUsageRow>(
      `SELECT day, cluster, node, node_instance_id AS "nodeInstanceId", node_hourly AS "nodeHourly", namespace, workload, team,
              node_hours AS "nodeHours"
       FROM kube_gpu_usage WHERE day >= $1 AND day < $2
       ORDER BY day, cluster COLLATE "C", node COLLATE "C", namespace COLLATE "C", workload COLLATE "C"`,
      [period.start, period.end],
    );
  }

  async poolSamples(period: Period): Promise<PoolSample[]> {
    const rows = await this.db.rows<Omit<PoolSample, 'at'> & { at: string }>(
      `SELECT cluster, pool, manager, at, hours, nodes, gpus, requested, hourly FROM kube_pool_samples
       WHERE at >= $1 AND at < $2 ORDER BY cluster COLLATE "C", pool COLLATE "C", at`,
      [`${period.start}T00:00:00.000Z`, `${period.end}T00:00:00.000Z`],
    );
    return rows.map((p) => ({ ...p, at: new Date(p.at) }));
  }
}

async function reattribute(tx: PgSession, rows: readonly KubeUsageRow[]): Promise<void> {
  const span = spanOfDays(rows.map((r) => r.day));
  if (!span) return;
  await attributeKubeCost(tx, span);
  await rebuildTeamDays(tx, span);
}
