import type { Dimension } from '@aws-sdk/client-cloudwatch';
import type { GpuRef } from '../../../domain/gpu-metrics.js';

/** IAM actions the CloudWatch GPU source calls, for the generated IAM policy in the docs. */
export const CLOUDWATCH_GPU_PERMISSIONS = ['cloudwatch:ListMetrics', 'cloudwatch:GetMetricData'] as const;
export type CloudWatchGpuPermission = (typeof CLOUDWATCH_GPU_PERMISSIONS)[number];

/** Where the CloudWatch agent's nvidia_gpu metrics land unless its config names another namespace. */
export const DEFAULT_GPU_NAMESPACE = 'CWAgent';

export type NvidiaSmiSlot = 'util' | 'memUsed' | 'power';

export interface NvidiaSmiMetric {
  readonly name: string;
  readonly slot: NvidiaSmiSlot;
  /** First letter of the GetMetricData query Ids for this metric (Ids must start lower-case). */
  readonly idPrefix: string;
}

/** utilization_gpu is in %, memory_used in MB as nvidia-smi reports them (MiB), power_draw in W. */
export const NVIDIA_SMI_METRICS: readonly NvidiaSmiMetric[] = [
  { name: 'nvidia_smi_utilization_gpu', slot: 'util', idPrefix: 'u' },
  { name: 'nvidia_smi_memory_used', slot: 'memUsed', idPrefix: 'm' },
  { name: 'nvidia_smi_power_draw', slot: 'power', idPrefix: 'p' },
];

/** The metric whose ListMetrics answer says which GPUs exist. */
export const DISCOVERY_METRIC = 'nvidia_smi_utilization_gpu';

/**
 * The agent's dimensions → GpuRef, or null for a rollup without a GPU index (the agent's
 * aggregation_dimensions publish those too). host is the instance id when the agent appends it.
 */
export function refFromDimensions(dimensions: readonly Dimension[]): GpuRef | null {
  const get = (name: string) => dimensions.find((d) => d.Name === name)?.Value;
  const host = get('InstanceId') || get('host');
  const gpu = get('index');
  if (!host || !gpu) return null;
  const ref: GpuRef = { host, gpu };
  const model = get('name');
  if (model) ref.model = model;
  return ref;
}

/** Joins a GPU's metrics across dimension sets: the agent's host name is the one dimension always there. */
export function gpuKey(dimensions: readonly Dimension[]): string {
  const get = (name: string) => dimensions.find((d) => d.Name === name)?.Value ?? '';
  return `${get('host') || get('InstanceId')}\u0000${get('index')}`;
}
