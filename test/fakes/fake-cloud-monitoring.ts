import type { ServerResponse } from 'node:http';
import { sendError, sendJson } from './fake-google-cloud.js';

/** One GPU of a VM as the Ops Agent reports it: utilisation in percent and memory used in bytes, at any time (seconds). */
export interface FakeOpsAgentGpu {
  project: string;
  zone: string;
  instanceId: string;
  gpu: string;
  model?: string;
  util: (t: number) => number;
  memoryUsedBytes?: (t: number) => number;
}

const METRICS = ['agent.googleapis.com/gpu/utilization', 'agent.googleapis.com/gpu/memory/bytes_used'] as const;

/**
 * Cloud Monitoring's projects.timeSeries.list (v3 REST) over Ops Agent GPU series: the filter must
 * name one metric type and resource.type "gce_instance" (optionally the memory's state and
 * `resource.labels.instance_id = one_of(...)`), the interval and an ALIGN_MEAN alignment are
 * required, and the points are the alignment periods' means, newest first, as Cloud Monitoring
 * answers; series come in pages of `pageSize` with nextPageToken. Anything else is refused with
 * Google's JSON error body and recorded as unexpected.
 */
export function answerTimeSeriesList(
  project: string,
  query: URLSearchParams,
  gpus: readonly FakeOpsAgentGpu[],
  res: ServerResponse,
  unexpected: string[],
): void {
  const filter = query.get('filter') ?? '';
  const refuse = (why: string) => {
    unexpected.push(`timeSeries.list: ${why} (${query.toString()})`);
    sendError(res, 400, 'INVALID_ARGUMENT', `Field filter had an invalid value: ${why}`, 'badRequest');
  };
  const metric = METRICS.find((m) => filter.includes(`metric.type = "${m}"`));
  if (!metric) return refuse('expected one metric.type of the Ops Agent GPU metrics');
  if (!filter.includes('resource.type = "gce_instance"')) return refuse('expected resource.type = "gce_instance"');
  const start = Date.parse(query.get('interval.startTime') ?? '') / 1000;
  const end = Date.parse(query.get('interval.endTime') ?? '') / 1000;
  if (!Number.isFinite(start) || !Number.isFinite(end) || end <= start)
    return refuse('expected interval.startTime before interval.endTime');
  const period = Number(/^(\d+)s$/.exec(query.get('aggregation.alignmentPeriod') ?? '')?.[1]);
  const aligner = query.get('aggregation.perSeriesAligner');
  if (!(period >= 60) || (aligner !== 'ALIGN_MEAN' && aligner !== '12')) return refuse('expected an ALIGN_MEAN alignment of 60s or more');
  const ids = /resource\.labels\.instance_id = one_of\(([^)]*)\)/
    .exec(filter)?.[1]
    ?.match(/"(\d+)"/g)
    ?.map((q) => q.slice(1, -1));
  const size = Number(query.get('pageSize') ?? 100_000);
  if (!(size > 0 && size <= 100_000)) return refuse('expected pageSize of at most 100000');
  const offset = Number(query.get('pageToken') || 0);

  const matching = gpus.filter(
    (g) => g.project === project && (!ids || ids.includes(g.instanceId)) && (metric !== METRICS[1] || g.memoryUsedBytes),
  );
  const series = matching.slice(offset, offset + size).map((g) => {
    const value = metric === METRICS[0] ? g.util : g.memoryUsedBytes!;
    const points: object[] = [];
    // Periods aligned to the epoch, as Cloud Monitoring aligns them; newest first.
    for (let e = Math.floor(end / period) * period; e - period >= start; e -= period)
      points.push({
        interval: { startTime: iso(e), endTime: iso(e) },
        value: metric === METRICS[0] ? { doubleValue: value(e - period) } : { doubleValue: value(e - period) },
      });
    return {
      metric: {
        type: metric,
        labels: {
          gpu_number: g.gpu,
          model: g.model ?? 'NVIDIA A100-SXM4-40GB',
          uuid: `GPU-${g.instanceId}-${g.gpu}`,
          ...(metric === METRICS[1] ? { state: 'used' } : {}),
        },
      },
      resource: { type: 'gce_instance', labels: { project_id: g.project, instance_id: g.instanceId, zone: g.zone } },
      metricKind: 'GAUGE',
      valueType: 'DOUBLE',
      points,
      unit: metric === METRICS[0] ? '%' : 'By',
    };
  });
  sendJson(res, { timeSeries: series, ...(offset + size < matching.length ? { nextPageToken: String(offset + size) } : {}) });
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
