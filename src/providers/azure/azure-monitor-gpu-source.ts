import type { MetricsClient, MetricsQueryResult } from '@azure/monitor-query-metrics';
import type { GpuInstance } from '../../domain/gpu-inventory.js';
import { compareRefs, type GpuSeries, type MetricsRange } from '../../domain/gpu-metrics.js';
import { createStepGrid, putSample, type StepGrid } from '../../domain/gpu-step-grid.js';
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
    const gpus: Gpus = new Map();
    const grain = GRAINS.find(([seconds]) => seconds <= range.stepSeconds) ?? GRAINS[GRAINS.length - 1]!;
    for (const { region, ids } of batchesOf(instances))
      for (const result of await this.query(region, ids, range, grain[1])) placeResult(result, grid, gpus);
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

type Gpus = Map<string, { ref: GpuSeries['ref']; util: Float32Array; memUsedMiB: Float32Array | null }>;

/** The running Azure VMs, by subscription and region (a batch request's scope), RESOURCES_PER_BATCH a batch. */
function batchesOf(instances: readonly GpuInstance[]): { region: string; ids: string[] }[] {
  const scopes = new Map<string, { region: string; ids: string[] }>();
  for (const instance of instances) {
    const vm = parseArmVmId(instance.instanceId);
    if (instance.provider !== 'azure' || !vm || instance.running === false) continue;
    const key = `${vm.subscriptionId}\u0000${instance.region}`;
    const scope = scopes.get(key) ?? { region: instance.region, ids: [] };
    scope.ids.push(instance.instanceId);
    scopes.set(key, scope);
  }
  return [...scopes.values()].flatMap(({ region, ids }) =>
    Array.from({ length: Math.ceil(ids.length / RESOURCES_PER_BATCH) }, (_, i) => ({
      region,
      ids: ids.slice(i * RESOURCES_PER_BATCH, (i + 1) * RESOURCES_PER_BATCH),
    })),
  );
}

/** One VM's answer into its GPUs' series: a series per GPU `index`, each point on the grid slot its grain lies in. */
function placeResult(result: MetricsQueryResult, grid: StepGrid, gpus: Gpus): void {
  for (const metric of result.metrics) {
    const name = metric.name.toLowerCase();
    if (name !== UTILIZATION && name !== MEMORY_USED) continue;
    for (const series of metric.timeseries ?? []) {
      const index = series.metadatavalues?.find((m) => (m.name ?? '').toLowerCase() === 'index')?.value;
      const ref = { host: vmKey(result.resourceId ?? ''), gpu: index ?? '0' };
      const key = `${ref.host}#${ref.gpu}`;
      const gpu = gpus.get(key) ?? { ref, util: grid.empty(), memUsedMiB: null };
      gpus.set(key, gpu);
      const target = name === UTILIZATION ? gpu.util : (gpu.memUsedMiB ??= grid.empty());
      for (const point of series.data ?? []) {
        // A point stands for the grain that starts at its time stamp: it belongs to the slot that grain lies in.
        const at = point.timeStamp.getTime() / 1000;
        const slot = grid.indexOf(grid.start + Math.floor((at - grid.start) / grid.step) * grid.step);
        if (slot >= 0 && point.average !== undefined && point.average !== null) putSample(target, slot, point.average);
      }
    }
  }
}
