import { ListMetricsCommand, type CloudWatchClient, type Dimension, type MetricDataQuery } from '@aws-sdk/client-cloudwatch';
import { MAX_QUERIES_PER_CALL } from './metric-data-queries.js';

/**
 * A host's CPU and memory in CloudWatch: EC2's own CPUUtilization (every instance, a percentage of
 * all its vCPUs) and the agent's mem_used_percent (where the agent's config appends InstanceId).
 */
const MEMORY_METRIC = 'mem_used_percent';

/** The agent's mem_used_percent dimension set per instance id (the first listed: they carry the same samples). */
export async function discoverMemoryMetrics(
  client: CloudWatchClient,
  namespace: string,
  instanceIds: ReadonlySet<string>,
): Promise<Map<string, Dimension[]>> {
  const found = new Map<string, Dimension[]>();
  let nextToken: string | undefined;
  do {
    const page = await client.send(new ListMetricsCommand({ Namespace: namespace, MetricName: MEMORY_METRIC, NextToken: nextToken }));
    for (const metric of page.Metrics ?? []) {
      const id = metric.Dimensions?.find((d) => d.Name === 'InstanceId')?.Value;
      if (id && instanceIds.has(id) && !found.has(id)) found.set(id, metric.Dimensions!);
    }
    nextToken = page.NextToken || undefined;
  } while (nextToken);
  return found;
}

/** One Average query per instance and figure, in batches of 500; Ids `c<i>` (CPU) and `r<i>` (memory) of the i-th instance. */
export function planHostQueries(
  instanceIds: readonly string[],
  memory: ReadonlyMap<string, Dimension[]>,
  namespace: string,
  periodSeconds: number,
): MetricDataQuery[][] {
  const all: MetricDataQuery[] = [];
  const add = (id: string, ns: string, name: string, dimensions: Dimension[]) => {
    all.push({
      Id: id,
      MetricStat: { Metric: { Namespace: ns, MetricName: name, Dimensions: dimensions }, Period: periodSeconds, Stat: 'Average' },
      ReturnData: true,
    });
  };
  instanceIds.forEach((instanceId, i) => {
    add(`c${i}`, 'AWS/EC2', 'CPUUtilization', [{ Name: 'InstanceId', Value: instanceId }]);
    const dimensions = memory.get(instanceId);
    if (dimensions) add(`r${i}`, namespace, MEMORY_METRIC, dimensions);
  });
  const batches: MetricDataQuery[][] = [];
  for (let i = 0; i < all.length; i += MAX_QUERIES_PER_CALL) batches.push(all.slice(i, i + MAX_QUERIES_PER_CALL));
  return batches;
}

/** EC2 publishes CPUUtilization every 5 minutes unless detailed monitoring is on: a finer period only adds gaps. */
export function hostPeriod(stepSeconds: number): number {
  return Math.max(300, Math.ceil(stepSeconds / 60) * 60);
}
