// GPU metrics fetched per idle-GPU check for a fleet of `gpus` GPUs: HTTP queries and bytes from
// Prometheus, GetMetricData calls and metrics requested from CloudWatch (and what AWS charges for
// them), for a first run (the whole lookback window) and a follow-up run 15 minutes later that
// reads only the new samples through the rolling window. For comparison, the follow-up as a full
// re-read (what every run cost before the rolling window).

import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import type { GpuMetricsSource } from '../src/ports/gpu-metrics-source.js';
import type { MetricsRange } from '../src/domain/gpu-metrics.js';
import { CloudWatchGpuSource } from '../src/providers/aws/cloudwatch/cloudwatch-source.js';
import { PrometheusGpuSource } from '../src/providers/prometheus/prometheus-source.js';
import { RollingWindowMetrics } from '../src/providers/rolling-window-metrics.js';
import { benchFleet, startBenchCloudWatch, startBenchPrometheus, type CloudWatchCounts, type WireCounts } from './gpu-metrics-servers.js';

/** AWS's published CloudWatch price for GetMetricData (us-east-1, at the time of writing): $0.01 per 1,000 metrics requested. */
export const GET_METRIC_DATA_USD_PER_1000_METRICS = 0.01;
const CHECKS_PER_DAY = 96; // every 15 minutes

export interface FetchRun {
  requests: number;
  bytes: number;
  ms: number;
  series: number;
}

export interface CloudWatchRun extends FetchRun {
  listMetricsCalls: number;
  getMetricDataCalls: number;
  metricsRequested: number;
  metricsRequestedFirstPages: number;
  datapoints: number;
}

export interface GpuFetchBench {
  gpus: number;
  lookbackHours: number;
  followUpMinutes: number;
  prometheus: { first: FetchRun; followUp: FetchRun; fullReread: FetchRun };
  cloudwatch: {
    first: CloudWatchRun;
    followUp: CloudWatchRun;
    fullReread: CloudWatchRun;
    usdPer1000Metrics: number;
    /** The first run after a start (the whole window). */
    usdFirstRun: { low: number; high: number };
    /** Follow-up checks: the steady state, at 96 checks a day. */
    usdPerCheck: { low: number; high: number };
    usdPerMonth: { low: number; high: number };
  };
}

export async function benchGpuFetch(opts: { gpus: number; lookbackHours: number; followUpMinutes: number }): Promise<GpuFetchBench> {
  const end = Math.floor(Date.now() / 60_000) * 60;
  const first: MetricsRange = { start: end - opts.lookbackHours * 3600, end, stepSeconds: 60 };
  const later: MetricsRange = {
    start: first.start + opts.followUpMinutes * 60,
    end: first.end + opts.followUpMinutes * 60,
    stepSeconds: 60,
  };

  const prom = await startBenchPrometheus(benchFleet(opts.gpus, 8));
  const promSource = () => new PrometheusGpuSource({ id: 'bench', url: prom.url, timeoutMs: 600_000 });
  const rollingProm = new RollingWindowMetrics(promSource());
  const prometheus = {
    first: await measure(rollingProm, first, prom.counts),
    followUp: await measure(rollingProm, later, prom.counts),
    fullReread: await measure(promSource(), later, prom.counts),
  };
  await prom.close();

  const cwServer = await startBenchCloudWatch(benchFleet(opts.gpus, 4));
  const client = new CloudWatchClient({
    region: 'us-east-1',
    endpoint: cwServer.url,
    credentials: { accessKeyId: 'AKIDBENCH', secretAccessKey: 'bench' },
    maxAttempts: 1,
  });
  const cwSource = () => new CloudWatchGpuSource({ id: 'bench', region: 'us-east-1', client });
  const rollingCw = new RollingWindowMetrics(cwSource(), { overlapSeconds: 180 });
  const cwRun = async (source: GpuMetricsSource, range: MetricsRange): Promise<CloudWatchRun> => {
    const before = { ...cwServer.cw };
    const run = await measure(source, range, cwServer.counts);
    const delta = (key: keyof CloudWatchCounts) => cwServer.cw[key] - before[key];
    return {
      ...run,
      listMetricsCalls: delta('listMetricsCalls'),
      getMetricDataCalls: delta('getMetricDataCalls'),
      metricsRequested: delta('metricsRequested'),
      metricsRequestedFirstPages: delta('metricsRequestedFirstPages'),
      datapoints: delta('datapoints'),
    };
  };
  const cwFirst = await cwRun(rollingCw, first);
  const cwFollowUp = await cwRun(rollingCw, later);
  const cwFull = await cwRun(cwSource(), later);
  await cwServer.close();

  // Whether AWS counts a metric again on each NextToken continuation its price page does not say: both bounds.
  const price = (metrics: number) => Math.round((metrics / 1000) * GET_METRIC_DATA_USD_PER_1000_METRICS * 10_000) / 10_000;
  const low = price(cwFollowUp.metricsRequestedFirstPages);
  const high = price(cwFollowUp.metricsRequested);
  return {
    ...opts,
    prometheus,
    cloudwatch: {
      first: cwFirst,
      followUp: cwFollowUp,
      fullReread: cwFull,
      usdPer1000Metrics: GET_METRIC_DATA_USD_PER_1000_METRICS,
      usdFirstRun: { low: price(cwFirst.metricsRequestedFirstPages), high: price(cwFirst.metricsRequested) },
      usdPerCheck: { low, high },
      usdPerMonth: { low: Math.round(low * CHECKS_PER_DAY * 30 * 100) / 100, high: Math.round(high * CHECKS_PER_DAY * 30 * 100) / 100 },
    },
  };
}

async function measure(source: GpuMetricsSource, range: MetricsRange, counts: WireCounts): Promise<FetchRun> {
  const before = { ...counts };
  const started = performance.now();
  const series = await source.fetch(range);
  return {
    requests: counts.requests - before.requests,
    bytes: counts.bytes - before.bytes,
    ms: Math.round(performance.now() - started),
    series: series.length,
  };
}
