import type { GpuMetricsSource } from '../../ports/gpu-metrics-source.js';
import type { GpuSeries, MetricsRange } from '../../domain/gpu-metrics.js';
import type { GpuInstance } from '../../domain/gpu-inventory.js';
import { machineMatchers, type LabelMatcher } from './machine-matchers.js';
import { buildGpuQuery, DCGM_METRICS, planWindows } from './dcgm-queries.js';
import { GpuSeriesAssembler } from './gpu-series-assembler.js';
import { PrometheusHttpClient, type FetchFn } from './prometheus-http.js';
import type { PrometheusAuth } from './prometheus-auth.js';
import { createStepGrid } from '../../domain/gpu-step-grid.js';
import { percentile95, type HostPeak } from '../../domain/host-peaks.js';
import { NODE_MEMORY_USED_QUERY, nodeCpuBusyQuery } from './node-queries.js';

export interface PrometheusGpuSourceOptions {
  id: string;
  /** Base URL of Prometheus (or Thanos, Mimir, ...): the part before /api/v1. */
  url: string;
  /** The token's value, read from the environment by the caller; never logged or shown. */
  bearerToken?: string | undefined;
  /** A token file that rotates, or SigV4 (prometheus-auth.ts); wins over bearerToken. */
  auth?: PrometheusAuth | undefined;
  /** Injected transport (tests, proxies); defaults to the global fetch. */
  fetch?: FetchFn | undefined;
  /** Per request; default 60 s. */
  timeoutMs?: number | undefined;
}

/**
 * GPU metrics from the NVIDIA DCGM exporter through the Prometheus HTTP API: one query_range per
 * metric (more only when the range exceeds Prometheus' 11,000 points per series), however many
 * GPUs there are.
 */
export class PrometheusGpuSource implements GpuMetricsSource {
  readonly type = 'prometheus';
  readonly id: string;
  readonly #http: PrometheusHttpClient;

  constructor(options: PrometheusGpuSourceOptions) {
    this.id = options.id;
    this.#http = new PrometheusHttpClient(options);
  }

  /** The URL messages name (never credentials). */
  get url(): string {
    return this.#http.displayUrl;
  }

  fetch(range: MetricsRange): Promise<GpuSeries[]> {
    return this.fetchMatching(range, []);
  }

  /** The same queries, restricted to these machines' series by their host names and pods (a Stop click's re-check). */
  fetchInstances(range: MetricsRange, instances: readonly GpuInstance[]): Promise<GpuSeries[]> {
    const matchers = machineMatchers(instances);
    return matchers.length === 0 ? Promise.resolve([]) : this.fetchMatching(range, matchers);
  }

  private async fetchMatching(range: MetricsRange, matchers: readonly LabelMatcher[]): Promise<GpuSeries[]> {
    const grid = createStepGrid(range);
    if (grid.length === 0) return [];
    const windows = planWindows(grid);
    const assembler = new GpuSeriesAssembler(grid);
    // Metrics in parallel (four requests), windows of one metric in turn to bound memory.
    await Promise.all(
      DCGM_METRICS.map(async (metric) => {
        for (const window of windows) {
          await this.#http.queryRange(buildGpuQuery(metric, matchers), window, (labels, times, values, count) =>
            assembler.add(metric.slot, labels, times, values, count),
          );
        }
      }),
    );
    return assembler.build();
  }

  /** node_exporter's CPU and memory per scrape target; none when Prometheus scrapes no node_exporter. */
  async hostPeaks(range: MetricsRange): Promise<HostPeak[]> {
    const grid = createStepGrid(range);
    if (grid.length === 0) return [];
    const windows = planWindows(grid);
    const collect = async (query: string) => {
      const values = new Map<string, number[]>();
      for (const window of windows)
        await this.#http.queryRange(query, window, (labels, _times, samples, count) => {
          if (!labels.instance) return;
          const into = values.get(labels.instance) ?? [];
          for (let i = 0; i < count; i++) into.push(samples[i]!);
          values.set(labels.instance, into);
        });
      return values;
    };
    const [cpu, memory] = await Promise.all([collect(nodeCpuBusyQuery(grid.step)), collect(NODE_MEMORY_USED_QUERY)]);
    const amount = (list: number[] | undefined, scale: number) => {
      const p95 = list ? percentile95(list) : null;
      return p95 === null ? null : { amount: p95 / scale };
    };
    return [...new Set([...cpu.keys(), ...memory.keys()])].map((host) => ({
      host,
      cpu: amount(cpu.get(host), 1),
      memory: amount(memory.get(host), BYTES_PER_GIB),
    }));
  }
}

const BYTES_PER_GIB = 1024 ** 3;
