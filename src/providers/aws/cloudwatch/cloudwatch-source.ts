import {
  CloudWatchClient,
  GetMetricDataCommand,
  type Dimension,
  type MetricDataQuery,
  type MetricDataResult,
} from '@aws-sdk/client-cloudwatch';
import type { GpuInstance } from '../../../domain/gpu-inventory.js';
import type { GpuMetricsSource } from '../../../ports/gpu-metrics-source.js';
import type { GpuSeries, MetricsRange } from '../../../domain/gpu-metrics.js';
import { BurnrateError } from '../../../domain/errors.js';
import { compareRefs } from '../../../domain/gpu-metrics.js';
import { createStepGrid, putSample, sampleCountOf, type StepGrid } from '../../../domain/gpu-step-grid.js';
import { explainCloudWatchError } from './cloudwatch-errors.js';
import { discoverGpus, type DiscoveredGpu } from './discover-gpus.js';
import { planMetricDataQueries, type QueryTarget } from './metric-data-queries.js';
import { percentile95, type HostPeak } from '../../../domain/host-peaks.js';
import { discoverMemoryMetrics, hostPeriod, planHostQueries } from './host-metrics.js';
import { CLOUDWATCH_GPU_PERMISSIONS, DEFAULT_GPU_NAMESPACE, type NvidiaSmiSlot } from './nvidia-smi-metrics.js';

export interface CloudWatchGpuSourceOptions {
  id: string;
  region: string;
  /** The agent's namespace; CWAgent unless its config says otherwise. */
  namespace?: string | undefined;
  /** A configured client (tests, custom credentials); by default one for `region` from the SDK's credential chain. */
  client?: CloudWatchClient | undefined;
  /** Attempts per call when burnrate builds the client, throttling retries included; default 3. */
  maxAttempts?: number | undefined;
}

type Slots = Partial<Record<NvidiaSmiSlot, Float32Array>>;

/**
 * GPU metrics the CloudWatch agent publishes from nvidia-smi. One fetch: ListMetrics (500 GPUs a
 * page) to find the GPUs, then GetMetricData with 500 queries a call (three metrics per GPU).
 */
export class CloudWatchGpuSource implements GpuMetricsSource {
  readonly type = 'cloudwatch';
  readonly id: string;
  readonly permissions = CLOUDWATCH_GPU_PERMISSIONS;
  private readonly region: string;
  private readonly namespace: string;
  private readonly client: CloudWatchClient;

  constructor(options: CloudWatchGpuSourceOptions) {
    this.id = options.id;
    this.region = options.region;
    this.namespace = options.namespace ?? DEFAULT_GPU_NAMESPACE;
    this.client = options.client ?? new CloudWatchClient({ region: options.region, maxAttempts: options.maxAttempts ?? 3 });
  }

  fetch(range: MetricsRange): Promise<GpuSeries[]> {
    return this.fetchListed(range, [[]]);
  }

  /**
   * These machines' GPUs only, listed by the agent's InstanceId and host dimensions (a Stop click's
   * re-check). CloudWatch compares dimension values exactly, where attribution ignores case: a
   * machine listed under no spelling tried is read as a fetch reads it.
   */
  async fetchInstances(range: MetricsRange, instances: readonly GpuInstance[]): Promise<GpuSeries[]> {
    const filters = instances.flatMap((instance) => [
      [{ Name: 'InstanceId', Value: instance.instanceId }],
      ...hostSpellings(instance).map((host) => [{ Name: 'host', Value: host }]),
    ]);
    const series = await this.fetchListed(range, filters);
    return series.length > 0 ? series : this.fetch(range);
  }

  private async fetchListed(range: MetricsRange, filters: readonly Dimension[][]): Promise<GpuSeries[]> {
    const grid = createStepGrid(range);
    checkPeriod(grid.step);
    if (grid.length === 0) return [];

    // 1. Which GPUs exist
    const gpus = await discoverGpus(this.client, this.namespace, filters).catch((error: unknown) => {
      throw explainCloudWatchError(error, 'cloudwatch:ListMetrics', this.region);
    });
    if (gpus.length === 0) return [];

    // 2. Their samples, 500 queries a call
    const plan = planMetricDataQueries(gpus, this.namespace, grid.step);
    const slots: Slots[] = gpus.map(() => ({}));
    for (const batch of plan.batches) {
      await this.getMetricData(batch, range, (result) => place(result, plan.targets, slots, grid)).catch((error: unknown) => {
        throw explainCloudWatchError(error, 'cloudwatch:GetMetricData', this.region);
      });
    }

    // 3. One series per GPU that had any data in the range (ListMetrics also lists GPUs gone for up to two weeks)
    return assemble(gpus, slots, grid);
  }

  /**
   * The instances' CPU (EC2's CPUUtilization) and memory (the agent's mem_used_percent) peaks, as
   * shares of the host: 5-minute averages, their 95th percentile.
   */
  async hostPeaks(range: MetricsRange, instanceIds: readonly string[]): Promise<HostPeak[]> {
    const ids = instanceIds.filter((id) => id.startsWith('i-'));
    if (ids.length === 0) return [];
    const period = hostPeriod(range.stepSeconds);
    sampleCountOf({ ...range, stepSeconds: period }); // refuses a window too long to read, before any call
    const memory = await discoverMemoryMetrics(this.client, this.namespace, new Set(ids)).catch((error: unknown) => {
      throw explainCloudWatchError(error, 'cloudwatch:ListMetrics', this.region);
    });
    const samples = new Map<string, number[]>();
    for (const batch of planHostQueries(ids, memory, this.namespace, period)) {
      await this.getMetricData(batch, range, (result) => {
        if (result.Id) samples.set(result.Id, [...(samples.get(result.Id) ?? []), ...(result.Values ?? [])]);
      }).catch((error: unknown) => {
        throw explainCloudWatchError(error, 'cloudwatch:GetMetricData', this.region);
      });
    }
    const share = (queryId: string) => {
      const p95 = percentile95(samples.get(queryId) ?? []);
      return p95 === null ? null : { share: p95 / 100 };
    };
    return ids.map((host, i) => ({ host, cpu: share(`c${i}`), memory: share(`r${i}`) }));
  }

  private async getMetricData(
    queries: MetricDataQuery[],
    range: MetricsRange,
    onResult: (result: MetricDataResult) => void,
  ): Promise<void> {
    let nextToken: string | undefined;
    do {
      const page = await this.client.send(
        new GetMetricDataCommand({
          MetricDataQueries: queries,
          StartTime: new Date(range.start * 1000),
          EndTime: new Date(range.end * 1000),
          ScanBy: 'TimestampAscending',
          NextToken: nextToken,
        }),
      );
      for (const result of page.MetricDataResults ?? []) onResult(result);
      nextToken = page.NextToken || undefined;
    } while (nextToken);
  }
}

/** The agent's `host` dimension is the machine's host name: its DNS names as listed, and their first labels. */
function hostSpellings(instance: GpuInstance): string[] {
  const names = (instance.hostNames ?? []).filter((name) => !/^\d+\.\d+\.\d+\.\d+$/.test(name));
  return [...new Set(names.flatMap((name) => [name, name.split('.')[0]!]))];
}

/** CloudWatch periods: 1, 5, 10 or 30 s (high-resolution metrics) or a multiple of 60 s. */
function checkPeriod(step: number): void {
  if ([1, 5, 10, 30].includes(step) || (Number.isInteger(step) && step % 60 === 0)) return;
  throw new BurnrateError(
    'burnrate_cloudwatch_step_invalid',
    `CloudWatch cannot return samples every ${step}s.`,
    'Use a step of 60 seconds or a multiple of it (1, 5, 10 or 30 s only for high-resolution metrics).',
  );
}

function place(result: MetricDataResult, targets: Map<string, QueryTarget>, slots: Slots[], grid: StepGrid): void {
  const target = result.Id === undefined ? undefined : targets.get(result.Id);
  const times = result.Timestamps ?? [];
  const values = result.Values ?? [];
  if (!target || times.length === 0) return;
  const gpuSlots = slots[target.gpu]!;
  const array = (gpuSlots[target.slot] ??= grid.empty());
  for (let i = 0; i < times.length; i++) {
    const index = grid.indexOf(times[i]!.getTime() / 1000);
    if (index >= 0 && values[i] !== undefined) putSample(array, index, values[i]!);
  }
}

function assemble(gpus: readonly DiscoveredGpu[], slots: readonly Slots[], grid: StepGrid): GpuSeries[] {
  const times = grid.times();
  const out: GpuSeries[] = [];
  gpus.forEach((gpu, i) => {
    const { util, memUsed, power } = slots[i]!;
    if (!util && !memUsed && !power) return;
    out.push({ ref: gpu.ref, times, util: util ?? grid.empty(), power: power ?? null, memUsedMiB: memUsed ?? null });
  });
  return out.sort(compareRefs);
}
