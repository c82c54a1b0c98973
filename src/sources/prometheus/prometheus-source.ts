import type { GpuMetricsSource } from '../../ports/gpu-metrics-source.js';
import type { GpuSeries, MetricsRange } from '../../domain/gpu-metrics.js';
import { buildGpuQuery, DCGM_METRICS, planWindows } from './dcgm-queries.js';
import { GpuSeriesAssembler } from './gpu-series-assembler.js';
import { PrometheusHttpClient, type FetchFn } from './prometheus-http.js';
import { createStepGrid } from '../../domain/gpu-step-grid.js';

export interface PrometheusGpuSourceOptions {
  id: string;
  /** Base URL of Prometheus (or Thanos, Mimir, ...): the part before /api/v1. */
  url: string;
  /** The token's value, read from the environment by the caller; never logged or shown. */
  bearerToken?: string | undefined;
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

  async fetch(range: MetricsRange): Promise<GpuSeries[]> {
    const grid = createStepGrid(range);
    if (grid.length === 0) return [];
    const windows = planWindows(grid);
    const assembler = new GpuSeriesAssembler(grid);
    // Metrics in parallel (four requests), windows of one metric in turn to bound memory.
    await Promise.all(
      DCGM_METRICS.map(async (metric) => {
        for (const window of windows) {
          await this.#http.queryRange(buildGpuQuery(metric.name), window, (labels, times, values, count) =>
            assembler.add(metric.slot, labels, times, values, count),
          );
        }
      }),
    );
    return assembler.build();
  }
}
