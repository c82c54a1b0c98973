import type { MetricsClient, MetricsQueryResult } from '@azure/monitor-query-metrics';
import type { GpuInstance } from '../../domain/gpu-inventory.js';
import { compareRefs, type GpuSeries, type MetricsRange } from '../../domain/gpu-metrics.js';
import { createStepGrid, putSample } from '../../domain/gpu-step-grid.js';
import type { GpuMetricsSource } from '../../ports/gpu-metrics-source.js';
import { parseArmVmId, vmKey } from './arm-vm-id.js';
import { explainAzureError } from './azure-errors.js';
import { AZURE_METRICS_READ } from './azure-permissions.js';

export interface AzureMonitorGpuSourceOptions {
  id: string;
  /** The custom metrics namespace the VMs publish their GPUs under (Telegraf's nvidia_smi input: Telegraf/nvidia_smi). */
  namespace: string;
  /** The GPU VMs whose metrics are read: the Azure inventory of the source's subscriptions. */
  vms: () => Promise<readonly GpuInstance[]>;
  /** The metrics client of a region (Azure Monitor's batch API is regional: https://<region>.metrics.monitor.azure.com). */
  clientFor: (region: string) => MetricsClient;
}

/** nvidia-smi's fields as Telegraf names them, written by its azure_monitor output as metrics of the VM. */
const UTILIZATION = 'utilization_gpu';
const MEMORY_USED = 'memory_used';

/** Resources per batch request: the batch API's maximum. */
const RESOURCES_PER_BATCH = 50;

/** Series per resource and metric the batch API returns with a dimension filter (its default, 10, is fewer GPUs than an ND96 has). */
const SERIES_PER_RESOURCE = 64;

/** The time grains Azure Monitor aggregates to, in seconds. */
const GRAINS: readonly [number, string][] = [
  [86_400, 'P1D'],
  [43_200, 'PT12H'],
  [21_600, 'PT6H'],
  [3_600, 'PT1H'],
  [1_800, 'PT30M'],
  [900, 'PT15M'],
  [300, 'PT5M'],
  [60, 'PT1M'],
];

/**
 * GPU metrics an Azure VM publishes to Azure Monitor as custom metrics of itself (Telegraf's
 * nvidia_smi input with its azure_monitor output: `utilization_gpu` in percent, `memory_used` in
 * MiB, one series per GPU by its `index` dimension). Read with Azure Monitor's batch API, up to 50
 * VMs of one subscription and region a request, averaged by Azure Monitor to the fetch's step
 * (the largest time grain it has that is not longer). Each series names its VM by resource id,
 * which is the VM's id in the inventory, so no host names are matched. A Stop's re-check reads
 * only the clicked VM. Deallocated VMs publish nothing and are not asked about.
 */
export class AzureMonitorGpuSource implements GpuMetricsSource {
  readonly type = 'azure-monitor';
  readonly id: string;

  constructor(private readonly options: AzureMonitorGpuSourceOptions) {
    this.id = options.id;
  }

  async fetch(range: MetricsRange): Promise<GpuSeries[]> {
    return this.read(range, await this.options.vms());
  }

  fetchInstances(range: MetricsRange, instances: readonly GpuInstance[]): Promise<GpuSeries[]> {
    return this.read(range, instances);
  }

  private async read(range: MetricsRange, instances: readonly GpuInstance[]): Promise<GpuSeries[]> {
    const grid = createStepGrid(range);
    if (grid.length === 0) return [];
    const batches = new Map<string, { subscription: string; region: string; ids: string[] }>();
    for (const instance of instances) {
      const vm = parseArmVmId(instance.instanceId);
      if (instance.provider !== 'azure' || !vm || instance.running === false) continue;
      const key = `${vm.subscriptionId}\u0000${instance.region}`;
      const batch = batches.get(key) ?? { subscription: vm.subscriptionId, region: instance.region, ids: [] };
      batch.ids.push(instance.instanceId);
      batches.set(key, batch);
    }
    const gpus = new Map<string, { ref: GpuSeries['ref']; util: Float32Array; memUsedMiB: Float32Array | null }>();
    const grain = GRAINS.find(([seconds]) => seconds <= range.stepSeconds) ?? GRAINS[GRAINS.length - 1]!;
    for (const { region, ids } of batches.values())
      for (let i = 0; i < ids.length; i += RESOURCES_PER_BATCH)
        for (const result of await this.query(region, ids.slice(i, i + RESOURCES_PER_BATCH), range, grain[1]))
          for (const metric of result.metrics) {
            const name = metric.name.toLowerCase();
            if (name !== UTILIZATION && name !== MEMORY_USED) continue;
            for (const series of metric.timeseries ?? []) {
              const dimension = (wanted: string) =>
                series.metadatavalues?.find((m) => (m.name ?? '').toLowerCase() === wanted)?.value ?? undefined;
              const ref = { host: vmKey(result.resourceId ?? ''), gpu: dimension('index') ?? '0' };
              const key = `${ref.host}#${ref.gpu}`;
              const gpu = gpus.get(key) ?? { ref, util: grid.empty(), memUsedMiB: null };
              gpus.set(key, gpu);
              const target = name === UTILIZATION ? gpu.util : (gpu.memUsedMiB ??= grid.empty());
              for (const point of series.data ?? []) {
                const index = grid.indexOf(point.timeStamp.getTime() / 1000);
                if (index >= 0 && point.average !== undefined && point.average !== null) putSample(target, index, point.average);
              }
            }
          }
    const times = grid.times();
    return [...gpus.values()].map((g) => ({ ref: g.ref, times, util: g.util, power: null, memUsedMiB: g.memUsedMiB })).sort(compareRefs);
  }

  private async query(region: string, ids: string[], range: MetricsRange, interval: string): Promise<MetricsQueryResult[]> {
    try {
      return await this.options.clientFor(region).queryResources(ids, [UTILIZATION, MEMORY_USED], this.options.namespace, {
        startTime: new Date(range.start * 1000),
        endTime: new Date(range.end * 1000),
        interval,
        aggregation: 'average',
        filter: "index eq '*'",
        top: SERIES_PER_RESOURCE,
      });
    } catch (error) {
      throw explainAzureError(error, AZURE_METRICS_READ, `the GPU metrics of ${ids.length} VM(s) in ${region}`);
    }
  }
}
