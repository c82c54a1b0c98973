import type { GpuInstance } from '../domain/gpu-inventory.js';
import type { GpuSeries } from '../domain/gpu-metrics.js';

/** Why a workload on a node whose GPUs do report has no metrics of its own, and what to change. */
export const NO_POD_LABELS_HINT =
  'the DCGM exporter on its node reports GPUs without pods: run it with Kubernetes attribution (`DCGM_EXPORTER_KUBERNETES=true`, or its `--kubernetes` flag) so each GPU names the pod holding it';

/**
 * The workloads whose nodes' GPUs report, every series without a pod or claim label: the exporter
 * runs without Kubernetes attribution (or cannot read the kubelet's pod-resources socket), so no
 * GPU of the node can be tied to a pod and its workloads look unmetered. A node is known by its
 * name as the exporter's host label spells it (the whole name or its first label).
 */
export function workloadsWithoutPodLabels(instances: readonly GpuInstance[], series: readonly GpuSeries[]): Set<string> {
  const hosts = new Map<string, boolean>();
  for (const { ref } of series) {
    const attributed = Boolean(ref.pod || ref.claim);
    for (const name of namesOf(ref.host)) hosts.set(name, (hosts.get(name) ?? false) || attributed);
  }
  const out = new Set<string>();
  for (const instance of instances) {
    const nodes = instance.kubernetes?.nodes ?? [];
    if (nodes.some((n) => namesOf(n.name).some((name) => hosts.get(name) === false))) out.add(instance.instanceId);
  }
  return out;
}

/** `ip-10-0-1-23.ec2.internal` → itself and `ip-10-0-1-23`, lower case. */
function namesOf(host: string): string[] {
  const lower = host.toLowerCase();
  const short = /^\d+\.\d+\.\d+\.\d+/.test(lower) ? lower : lower.split('.')[0]!;
  return short === lower ? [lower] : [lower, short];
}
