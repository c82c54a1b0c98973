import type { GpuMetricsSourceConfig } from './gpu-sources-schema.js';

/**
 * The id a metrics source is known by in messages and logs. Apart from the schema, so that reading
 * a configuration already parsed (the GPU registry, its bearer tokens) does not load zod.
 */
export function metricsSourceId(source: GpuMetricsSourceConfig): string {
  if (source.id) return source.id;
  if (source.type === 'cloud-monitoring' || source.type === 'azure-monitor') return source.type;
  return source.type === 'prometheus' ? 'prometheus' : `cloudwatch-${source.region}`;
}
