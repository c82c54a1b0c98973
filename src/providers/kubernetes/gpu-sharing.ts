// GPUs shared by fractions: the share of a GPU a pod is charged for when several pods run on one.

export { KAI_RESERVATION_NAMESPACE } from '../../domain/kubernetes.js';

/** KAI's pod annotations: a fraction of one GPU (`0.5`), on this many GPUs, or GPU memory in MiB. */
const KAI = { fraction: 'gpu-fraction', devices: 'gpu-fraction-num-devices', memory: 'gpu-memory' } as const;

/** What the GPU operator's feature discovery says of a node's GPUs. */
const GFD = { replicas: 'nvidia.com/gpu.replicas', memory: 'nvidia.com/gpu.memory' } as const;

/**
 * The GPUs a KAI fractional pod holds: `gpu-fraction` × `gpu-fraction-num-devices`, or
 * `gpu-memory` over the node's GPU memory (`nvidia.com/gpu.memory`, MiB, from GPU feature
 * discovery; without it the memory share cannot be priced and counts 0). 0 for any other pod; a
 * value that is no number in (0, 1] (fraction) or above 0 (memory) is not a fraction.
 */
export function kaiFraction(
  annotations: Readonly<Record<string, string>>,
  nodeLabels: Readonly<Record<string, string>> | undefined,
): number {
  const fraction = Number(annotations[KAI.fraction]);
  if (fraction > 0 && fraction <= 1) {
    const devices = Number(annotations[KAI.devices] ?? 1);
    return fraction * (Number.isInteger(devices) && devices >= 1 ? devices : 1);
  }
  const memory = Number(annotations[KAI.memory]);
  const perGpu = Number(nodeLabels?.[GFD.memory]);
  if (memory > 0 && perGpu > 0) return Math.min(1, memory / perGpu);
  return 0;
}

/**
 * Time-slicing (and MPS) replicas: the device plugin offers each GPU `nvidia.com/gpu.replicas`
 * times, so one `nvidia.com/gpu` (or `nvidia.com/gpu.shared`, when renamed) is 1/replicas of a GPU.
 * 1 on a node that shares nothing.
 */
export function replicasOf(nodeLabels: Readonly<Record<string, string>> | undefined): number {
  const replicas = Number(nodeLabels?.[GFD.replicas]);
  return Number.isInteger(replicas) && replicas > 1 ? replicas : 1;
}

/** The resource a renamed time-sliced GPU is offered as. */
export const SHARED_GPU_RESOURCE = 'nvidia.com/gpu.shared';
