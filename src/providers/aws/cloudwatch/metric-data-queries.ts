import type { MetricDataQuery } from '@aws-sdk/client-cloudwatch';
import type { DiscoveredGpu } from './discover-gpus.js';
import { NVIDIA_SMI_METRICS, type NvidiaSmiSlot } from './nvidia-smi-metrics.js';

/** GetMetricData takes at most this many queries per call. */
export const MAX_QUERIES_PER_CALL = 500;

export interface QueryTarget {
  gpu: number;
  slot: NvidiaSmiSlot;
}

export interface QueryPlan {
  batches: MetricDataQuery[][];
  /** Query Id → which GPU and metric its values fill. */
  targets: Map<string, QueryTarget>;
}

/** One Average query per GPU, metric and dimension set, in batches of 500. */
export function planMetricDataQueries(gpus: readonly DiscoveredGpu[], namespace: string, periodSeconds: number): QueryPlan {
  const targets = new Map<string, QueryTarget>();
  const all: MetricDataQuery[] = [];
  let ordinal = 0;
  gpus.forEach((gpu, index) => {
    for (const dimensions of gpu.dimensionSets) {
      for (const metric of NVIDIA_SMI_METRICS) {
        const id = `${metric.idPrefix}${ordinal}`;
        targets.set(id, { gpu: index, slot: metric.slot });
        all.push({
          Id: id,
          MetricStat: {
            Metric: { Namespace: namespace, MetricName: metric.name, Dimensions: dimensions },
            Period: periodSeconds,
            Stat: 'Average',
          },
          ReturnData: true,
        });
      }
      ordinal++;
    }
  });
  const batches: MetricDataQuery[][] = [];
  for (let i = 0; i < all.length; i += MAX_QUERIES_PER_CALL) batches.push(all.slice(i, i + MAX_QUERIES_PER_CALL));
  return { batches, targets };
}
