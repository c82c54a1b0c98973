import { ListMetricsCommand, type CloudWatchClient, type Dimension } from '@aws-sdk/client-cloudwatch';
import type { GpuRef } from '../../../domain/gpu-metrics.js';
import { DISCOVERY_METRIC, gpuKey, refFromDimensions } from './nvidia-smi-metrics.js';

/** A GPU and the dimension sets its metrics are published under (usually one). */
export interface DiscoveredGpu {
  ref: GpuRef;
  dimensionSets: Dimension[][];
}

/**
 * Lists the GPUs that published utilisation in the namespace: ListMetrics filtered to one metric
 * name, 500 per page, so a thousand GPUs take two calls. The other metrics share the dimensions.
 * With `filters`, one listing per filter (a machine's InstanceId or host dimension), joined.
 */
export async function discoverGpus(
  client: CloudWatchClient,
  namespace: string,
  filters: readonly Dimension[][] = [[]],
): Promise<DiscoveredGpu[]> {
  const gpus = new Map<string, DiscoveredGpu>();
  for (const filter of filters) await listInto(gpus, client, namespace, filter);
  return [...gpus.values()];
}

async function listInto(gpus: Map<string, DiscoveredGpu>, client: CloudWatchClient, namespace: string, filter: Dimension[]): Promise<void> {
  let nextToken: string | undefined;
  do {
    const page = await client.send(
      new ListMetricsCommand({
        Namespace: namespace,
        MetricName: DISCOVERY_METRIC,
        ...(filter.length > 0 ? { Dimensions: filter } : {}),
        NextToken: nextToken,
      }),
    );
    for (const metric of page.Metrics ?? []) {
      const dimensions = metric.Dimensions ?? [];
      const ref = refFromDimensions(dimensions);
      if (!ref) continue;
      const key = gpuKey(dimensions);
      const known = gpus.get(key);
      if (!known) gpus.set(key, { ref, dimensionSets: [dimensions] });
      else {
        known.dimensionSets.push(dimensions);
        // A set with InstanceId names the machine better than the bare host name.
        if (ref.host !== known.ref.host && dimensions.some((d) => d.Name === 'InstanceId')) known.ref = ref;
      }
    }
    nextToken = page.NextToken || undefined;
  } while (nextToken);
}
