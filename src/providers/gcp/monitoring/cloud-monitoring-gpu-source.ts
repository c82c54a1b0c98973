import type { MetricServiceClient, protos } from '@google-cloud/monitoring';
import type { GpuInstance } from '../../../domain/gpu-inventory.js';
import { compareRefs, type GpuSeries, type MetricsRange } from '../../../domain/gpu-metrics.js';
import { createStepGrid, putSample, type StepGrid } from '../../../domain/gpu-step-grid.js';
import type { GpuMetricsSource } from '../../../ports/gpu-metrics-source.js';
import { explainGoogleError } from '../gcp-errors.js';
import { gceInstanceId, isGceInstanceId, parseGceInstanceId } from '../compute/gce-instance-id.js';
import { MONITORING_READ } from '../compute/gce-permissions.js';

type TimeSeries = protos.google.monitoring.v3.ITimeSeries;

export interface CloudMonitoringGpuSourceOptions {
  id: string;
  projects: readonly string[];
  client: MetricServiceClient;
}

/** What the Ops Agent publishes per GPU of a VM (percent busy, and framebuffer bytes by state). */
const UTILIZATION = 'agent.googleapis.com/gpu/utilization';
const MEMORY_USED = 'agent.googleapis.com/gpu/memory/bytes_used';

/** Series per page: Cloud Monitoring's maximum for a listing with points. */
const PAGE_SIZE = 100_000;

/** VM ids per filter of a re-check: well inside Cloud Monitoring's filter length. */
const IDS_PER_FILTER = 50;

const MIB = 1024 * 1024;

/**
 * GPU metrics the Ops Agent publishes to Cloud Monitoring from Compute Engine VMs: timeSeries.list
 * of each project, aligned by Cloud Monitoring itself to the fetch's step (ALIGN_MEAN), every
 * page. Each series names its VM by project, zone and numeric id, which is the VM's id in the
 * inventory, so no host names are matched. A Stop's re-check reads only the clicked VM.
 */
export class CloudMonitoringGpuSource implements GpuMetricsSource {
  readonly type = 'cloud-monitoring';
  readonly id: string;

  constructor(private readonly options: CloudMonitoringGpuSourceOptions) {
    this.id = options.id;
  }

  fetch(range: MetricsRange): Promise<GpuSeries[]> {
    return this.read(
      range,
      this.options.projects.map((project) => ({ project, filter: '' })),
    );
  }

  async fetchInstances(range: MetricsRange, instances: readonly GpuInstance[]): Promise<GpuSeries[]> {
    const byProject = new Map<string, string[]>();
    for (const instance of instances) {
      if (!isGceInstanceId(instance.instanceId)) continue;
      const { project, id } = parseGceInstanceId(instance.instanceId);
      byProject.set(project, [...(byProject.get(project) ?? []), id]);
    }
    const asks = [...byProject].flatMap(([project, ids]) => {
      const chunks: { project: string; filter: string }[] = [];
      for (let i = 0; i < ids.length; i += IDS_PER_FILTER)
        chunks.push({
          project,
          filter: ` AND resource.labels.instance_id = one_of(${ids
            .slice(i, i + IDS_PER_FILTER)
            .map((id) => `"${id}"`)
            .join(', ')})`,
        });
      return chunks;
    });
    return this.read(range, asks);
  }

  private async read(range: MetricsRange, asks: readonly { project: string; filter: string }[]): Promise<GpuSeries[]> {
    const grid = createStepGrid(range);
    if (grid.length === 0) return [];
    const gpus = new Map<string, { ref: GpuSeries['ref']; util: Float32Array; memUsedMiB: Float32Array | null }>();
    for (const ask of asks) {
      for (const metric of [UTILIZATION, MEMORY_USED]) {
        const state = metric === MEMORY_USED ? ' AND metric.labels.state = "used"' : '';
        const filter = `metric.type = "${metric}" AND resource.type = "gce_instance"${state}${ask.filter}`;
        for (const series of await this.list(ask.project, filter, range)) {
          const ref = refOf(series, ask.project);
          if (!ref) continue;
          const key = `${ref.host}#${ref.gpu}`;
          const gpu = gpus.get(key) ?? { ref, util: grid.empty(), memUsedMiB: null };
          gpus.set(key, gpu);
          if (metric === UTILIZATION) place(series, grid, gpu.util, 1);
          else place(series, grid, (gpu.memUsedMiB ??= grid.empty()), 1 / MIB);
        }
      }
    }
    const times = grid.times();
    return [...gpus.values()].map((g) => ({ ref: g.ref, times, util: g.util, power: null, memUsedMiB: g.memUsedMiB })).sort(compareRefs);
  }

  private async list(project: string, filter: string, range: MetricsRange): Promise<TimeSeries[]> {
    const out: TimeSeries[] = [];
    try {
      const pages = this.options.client.listTimeSeriesAsync(
        {
          name: `projects/${project}`,
          filter,
          interval: { startTime: { seconds: range.start }, endTime: { seconds: range.end } },
          aggregation: { alignmentPeriod: { seconds: range.stepSeconds }, perSeriesAligner: 'ALIGN_MEAN' },
          view: 'FULL',
          pageSize: PAGE_SIZE,
        },
        { autoPaginate: false },
      );
      for await (const series of pages) out.push(series);
    } catch (error) {
      throw explainGoogleError(error, { ...MONITORING_READ, service: 'Cloud Monitoring', resource: `project ${project}` });
    }
    return out;
  }
}

/** The GPU a series measures: its VM as the inventory names it, and the GPU's number on it. */
function refOf(series: TimeSeries, project: string): GpuSeries['ref'] | undefined {
  const resource = series.resource?.labels ?? {};
  const labels = series.metric?.labels ?? {};
  if (!resource.instance_id || !resource.zone) return undefined;
  return {
    host: gceInstanceId({ project: resource.project_id || project, zone: resource.zone, id: resource.instance_id }),
    gpu: labels.gpu_number ?? '0',
    ...(labels.uuid ? { uuid: labels.uuid } : {}),
    ...(labels.model ? { model: labels.model } : {}),
  };
}

function place(series: TimeSeries, grid: StepGrid, target: Float32Array, scale: number): void {
  for (const point of series.points ?? []) {
    const end = point.interval?.endTime?.seconds;
    const value = point.value?.doubleValue ?? point.value?.int64Value;
    if (end === null || end === undefined || value === null || value === undefined) continue;
    // An aligned point stands for the period that ends at its time: it belongs to the grid slot that period starts at.
    const index = grid.indexOf(Number(end) - grid.step);
    if (index >= 0) putSample(target, index, Number(value) * scale);
  }
}
