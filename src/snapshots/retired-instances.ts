import type { GpuInstance } from '../domain/gpu-inventory.js';
import type { GpuSeries } from '../domain/gpu-metrics.js';
import { countPhysicalGpus } from '../domain/physical-gpus.js';
import type { CloudProvider } from '../domain/price-catalog.js';

/**
 * Machines the metrics name by instance id that the inventory no longer lists: a training run or a
 * spot instance terminated during the period. Their bill still belongs to the period, so the waste
 * diagnosis asks the bill about them. Series of Kubernetes pods are left out: a pod is priced by its
 * node's bill, never on its own.
 */
export function goneHosts(unattributed: readonly GpuSeries[]): Map<string, GpuSeries[]> {
  const byHost = new Map<string, GpuSeries[]>();
  for (const s of unattributed) {
    if (s.ref.pod) continue;
    byHost.set(s.ref.host, [...(byHost.get(s.ref.host) ?? []), s]);
  }
  return byHost;
}

/**
 * A gone instance as the diagnosis needs it: its id, the bill's team and provider, and its physical
 * GPUs from its series. Its type is unknown (the inventory is what said it), so no catalog advice
 * (right-size, spot) is given for it; its money is the bill's, its idle and stalled time the metrics'.
 */
export function goneInstance(
  instanceId: string,
  series: readonly GpuSeries[],
  bill: { team: string; provider: string | null; name: string | null },
): GpuInstance {
  return {
    instanceId,
    name: bill.name,
    provider: providerOf(bill.provider),
    region: '',
    instanceType: '',
    gpuModel: series.find((s) => s.ref.model)?.ref.model ?? '',
    gpuCount: countPhysicalGpus(series.map((s) => s.ref)),
    gpuMemoryGiB: null,
    hourlyPrice: 0,
    priceBasis: 'billed',
    priceNote: 'gone from the inventory: priced by its bill',
    lifecycle: 'on-demand',
    team: bill.team,
    ownerTag: null,
    workload: 'unknown',
    protected: false,
    owner: null,
    tags: {},
    running: false,
  };
}

/** The catalog's provider name for the bill's ProviderName (AWS, Google Cloud, Microsoft). */
function providerOf(name: string | null): CloudProvider {
  const n = (name ?? '').toLowerCase();
  if (n.includes('google') || n === 'gcp') return 'gcp';
  if (n.includes('microsoft') || n.includes('azure')) return 'azure';
  return 'aws';
}

/**
 * A machine no source listed while a GPU inventory source could not be read: it may be that source's,
 * so it is unknown, not gone. Its bill stays in the spend; nothing is diagnosed of it (no cause).
 */
export function unreadInstance(instanceId: string, bill: { team: string; provider: string | null; name: string | null }): GpuInstance {
  const { running: _unknown, ...instance } = goneInstance(instanceId, [], bill);
  return { ...instance, priceNote: 'its GPU inventory could not be read: priced by its bill' };
}
