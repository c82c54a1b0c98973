import { metricsSourceId } from '../../config/gpu-sources-schema.js';
import type { ProviderGpu } from '../provider.js';
import { RollingWindowMetrics } from '../rolling-window-metrics.js';
import { PrometheusGpuSource } from './prometheus-source.js';

/** DCGM and node_exporter metrics from Prometheus; each source's bearer token comes read from the environment already (bearer-tokens.ts). */
export function prometheusGpu(tokens: ReadonlyMap<string, string>): ProviderGpu {
  return {
    metrics: (source) => {
      if (source.type !== 'prometheus') throw new Error(`not a Prometheus source: ${source.type}`);
      const id = metricsSourceId(source);
      return new RollingWindowMetrics(
        new PrometheusGpuSource({ id, url: source.url, bearerToken: tokens.get(id), timeoutMs: source.timeoutSeconds * 1000 }),
      );
    },
  };
}
