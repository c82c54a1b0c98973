import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { describe, expect, it, vi } from 'vitest';
import type { GpuSeries, MetricsRange } from '../../../../src/domain/gpu-metrics.js';
import { BurnrateError } from '../../../../src/domain/errors.js';
import { CloudWatchGpuSource } from '../../../../src/providers/aws/cloudwatch/cloudwatch-source.js';
import { CLOUDWATCH_GPU_PERMISSIONS } from '../../../../src/providers/aws/cloudwatch/nvidia-smi-metrics.js';
import {
  FakeCloudWatch,
  generatedCloudWatchFleet,
  nvidiaSmiMetrics,
  readNvidiaSmiCapture,
  type FakeCloudWatchOptions,
} from '../../../fakes/fake-cloudwatch.js';
import { oneAwsFakePerTest, TEST_AWS_CREDENTIALS } from '../../../support/aws-test-env.js';

const START = Date.UTC(2026, 10, 2, 7, 0, 0) / 1000;
const HOUR: MetricsRange = { start: START, end: START + 3600, stepSeconds: 60 };
const REGION = 'eu-west-1';
const CREDENTIALS = TEST_AWS_CREDENTIALS;

const h100Load = readNvidiaSmiCapture('nvidia-h100-80gb-hbm3__590.48.01', 'load');
const h100Idle = readNvidiaSmiCapture('nvidia-h100-80gb-hbm3__590.48.01', 'idle');
const l40sLoad = readNvidiaSmiCapture('nvidia-l40s__595.80', 'load');
const l40sIdle = readNvidiaSmiCapture('nvidia-l40s__595.80', 'idle');

/**
 * - H100 on an instance with InstanceId appended: training (the load capture) for 30 minutes, then idle;
 * - L40S #0 on a host without InstanceId: the load capture, with the agent silent from minute 10 to 19;
 * - L40S #1 on the same host: the idle capture (nvidia-smi reports 100 % there, 0 MiB used);
 * - an H100 that stopped publishing (listed, no datapoints), a GPU rollup without index, and CPU noise.
 */
const FLEET: FakeCloudWatchOptions = {
  gpus: [
    {
      dimensions: { host: 'ip-10-0-1-17', index: '0', name: h100Load.name, InstanceId: 'i-0a1b2c3d4e5f60718' },
      metrics: nvidiaSmiMetrics((t) => (t < START + 1800 ? h100Load : h100Idle)),
    },
    {
      dimensions: { name: l40sLoad.name, index: '0', host: 'ip-10-0-2-5' },
      metrics: nvidiaSmiMetrics((t) => (t >= START + 600 && t < START + 1200 ? null : l40sLoad)),
    },
    { dimensions: { host: 'ip-10-0-2-5', index: '1', name: l40sIdle.name }, metrics: nvidiaSmiMetrics(() => l40sIdle) },
    { dimensions: { host: 'ip-10-0-9-9', index: '0', name: h100Load.name }, metrics: nvidiaSmiMetrics(() => null) },
  ],
  extraMetrics: [
    { MetricName: 'nvidia_smi_utilization_gpu', Dimensions: { host: 'ip-10-0-2-5' } },
    { MetricName: 'cpu_usage_idle', Dimensions: { host: 'ip-10-0-2-5', cpu: 'cpu-total' } },
  ],
};

const aws = oneAwsFakePerTest<FakeCloudWatch>();

async function startFake(options: FakeCloudWatchOptions = FLEET): Promise<FakeCloudWatch> {
  aws.started = await FakeCloudWatch.start(options);
  return aws.started;
}

function client(cw: FakeCloudWatch, maxAttempts = 3): CloudWatchClient {
  return new CloudWatchClient({ region: REGION, endpoint: cw.endpoint, credentials: CREDENTIALS, maxAttempts });
}

function source(cw: FakeCloudWatch, extra: { namespace?: string; maxAttempts?: number } = {}): CloudWatchGpuSource {
  return new CloudWatchGpuSource({ id: 'cw', region: REGION, client: client(cw, extra.maxAttempts), namespace: extra.namespace });
}

function byRef(series: GpuSeries[], host: string, gpu: string): GpuSeries {
  const found = series.find((s) => s.ref.host === host && s.ref.gpu === gpu);
  if (!found) throw new Error(`no series for ${host}/${gpu}`);
  return found;
}

async function caught(promise: Promise<unknown>): Promise<BurnrateError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BurnrateError);
  return error as BurnrateError;
}

describe('CloudWatchGpuSource', () => {
  it('returns one series per GPU from the nvidia_smi metrics, keyed by instance id, index and model', async () => {
    const cw = await startFake();
    const series = await source(cw).fetch(HOUR);

    expect(series.map((s) => s.ref)).toEqual([
      { host: 'i-0a1b2c3d4e5f60718', gpu: '0', model: 'NVIDIA H100 80GB HBM3' },
      { host: 'ip-10-0-2-5', gpu: '0', model: 'NVIDIA L40S' },
      { host: 'ip-10-0-2-5', gpu: '1', model: 'NVIDIA L40S' },
    ]);
    const h100 = byRef(series, 'i-0a1b2c3d4e5f60718', '0');
    expect(h100.times.length).toBe(60);
    expect(h100.times[0]).toBe(START);
    expect([h100.util[0], h100.memUsedMiB![0], h100.power![0]]).toEqual([100, 19_818, Math.fround(631.95)]);
    expect([h100.util[30], h100.memUsedMiB![30], h100.power![30]]).toEqual([0, 0, Math.fround(69.85)]);
    expect(byRef(series, 'ip-10-0-2-5', '1').util[5]).toBe(100);

    // Signed for the "monitoring" service in the region, with the test credentials.
    expect(cw.calls.every((c) => c.service === 'monitoring' && c.region === REGION && c.accessKeyId === CREDENTIALS.accessKeyId)).toBe(
      true,
    );
    expect(cw.callsOf('ListMetrics').map((c) => c.input)).toEqual([{ Namespace: 'CWAgent', MetricName: 'nvidia_smi_utilization_gpu' }]);
    const [call] = cw.callsOf('GetMetricData');
    expect(call!.input).toMatchObject({ StartTime: START, EndTime: START + 3600, ScanBy: 'TimestampAscending' });
    expect(call!.input.MetricDataQueries[0]).toEqual({
      Id: 'u0',
      MetricStat: {
        Metric: {
          Namespace: 'CWAgent',
          MetricName: 'nvidia_smi_utilization_gpu',
          Dimensions: [
            { Name: 'host', Value: 'ip-10-0-1-17' },
            { Name: 'index', Value: '0' },
            { Name: 'name', Value: 'NVIDIA H100 80GB HBM3' },
            { Name: 'InstanceId', Value: 'i-0a1b2c3d4e5f60718' },
          ],
        },
        Period: 60,
        Stat: 'Average',
      },
      ReturnData: true,
    });
  });

  it('turns gaps into NaN in every metric', async () => {
    const cw = await startFake();
    const l40s = byRef(await source(cw).fetch(HOUR), 'ip-10-0-2-5', '0');
    for (let i = 0; i < 60; i++) {
      const inGap = i >= 10 && i < 20;
      for (const arr of [l40s.util, l40s.memUsedMiB!, l40s.power!]) expect(Number.isNaN(arr[i]!)).toBe(inGap);
    }
    expect(l40s.util[9]).toBe(9);
    expect(l40s.memUsedMiB![20]).toBe(1235);
  });

  it('makes ListMetrics pages + ceil(3000 / 500) GetMetricData calls for 1,000 GPUs', async () => {
    const cw = await startFake({ gpus: generatedCloudWatchFleet(1000) });
    const series = await source(cw).fetch(HOUR);

    expect(series).toHaveLength(1000);
    expect(cw.callsOf('ListMetrics')).toHaveLength(2);
    const gets = cw.callsOf('GetMetricData');
    expect(gets).toHaveLength(6);
    expect(cw.calls).toHaveLength(8);
    const ids = gets.flatMap((c) => c.input.MetricDataQueries.map((q: { Id: string }) => q.Id));
    expect(gets.every((c) => c.input.MetricDataQueries.length === 500)).toBe(true);
    expect(new Set(ids).size).toBe(3000);
    expect(series.filter((s) => s.util[0] === 100)).toHaveLength(500);
    expect(series.every((s) => s.power !== null && s.memUsedMiB !== null && !Number.isNaN(s.util[59]!))).toBe(true);
  });

  it('follows GetMetricData and ListMetrics NextToken pages', async () => {
    const cw = await startFake({ ...FLEET, maxDatapointsPerPage: 50, listPageSize: 2 });
    const paged = await source(cw).fetch(HOUR);
    expect(cw.callsOf('ListMetrics').length).toBe(3); // 5 utilisation metrics (one a rollup), 2 a page
    expect(cw.callsOf('GetMetricData').length).toBeGreaterThan(5);

    const whole = await startFake();
    const once = await source(whole).fetch(HOUR);
    cw.assertNoUnexpectedCalls();
    await cw.close();
    expect(paged).toEqual(once);
  });

  it('joins a GPU published under two dimension sets (before and after append_dimensions)', async () => {
    const reading = (v: number) => ({ ...h100Load, utilizationGpu: v });
    const cw = await startFake({
      gpus: [
        {
          dimensions: { host: 'ip-10-0-1-17', index: '0', name: h100Load.name },
          metrics: nvidiaSmiMetrics((t) => (t < START + 600 ? reading(40) : null)),
        },
        {
          dimensions: { host: 'ip-10-0-1-17', index: '0', name: h100Load.name, InstanceId: 'i-0a1b2c3d4e5f60718' },
          metrics: nvidiaSmiMetrics((t) => (t >= START + 600 ? reading(70) : null)),
        },
      ],
    });
    const series = await source(cw).fetch(HOUR);
    expect(series).toHaveLength(1);
    expect(series[0]!.ref.host).toBe('i-0a1b2c3d4e5f60718');
    expect([series[0]!.util[9], series[0]!.util[10]]).toEqual([40, 70]);
    expect(cw.callsOf('GetMetricData')[0]!.input.MetricDataQueries).toHaveLength(6);
  });

  it('reads another namespace when configured', async () => {
    const cw = await startFake({ ...FLEET, namespace: 'GPU/Training' });
    expect(await source(cw, { namespace: 'GPU/Training' }).fetch(HOUR)).toHaveLength(3);
    expect(cw.callsOf('ListMetrics')[0]!.input.Namespace).toBe('GPU/Training');
  });

  it('names cloudwatch:ListMetrics when ListMetrics is denied', async () => {
    const cw = await startFake();
    cw.failNext('ListMetrics', 'AccessDenied');
    const error = await caught(source(cw).fetch(HOUR));
    expect(error.code).toBe('burnrate_cloudwatch_access_denied');
    expect(error.message).toMatch(
      /^CloudWatch in eu-west-1 denied cloudwatch:ListMetrics: User: arn:aws:iam::123456789012:user\/burnrate is not authorized/,
    );
    expect(error.hint).toBe(
      'Allow cloudwatch:ListMetrics for the IAM role or user burnrate runs as. The GPU metrics source needs cloudwatch:ListMetrics and cloudwatch:GetMetricData on resource "*".',
    );
    expect(cw.calls).toHaveLength(1); // not retried
  });

  it('names cloudwatch:GetMetricData when GetMetricData is denied', async () => {
    const cw = await startFake();
    cw.failNext('GetMetricData', 'AccessDenied');
    const error = await caught(source(cw).fetch(HOUR));
    expect(error.code).toBe('burnrate_cloudwatch_access_denied');
    expect(error.message).toContain('denied cloudwatch:GetMetricData');
    expect(error.hint).toMatch(/^Allow cloudwatch:GetMetricData/);
    expect(error.describe()).not.toContain(CREDENTIALS.secretAccessKey);
  });

  it('lets the SDK retry throttling', async () => {
    const cw = await startFake();
    cw.failNext('GetMetricData', 'Throttling');
    expect(await source(cw).fetch(HOUR)).toHaveLength(3);
    expect(cw.callsOf('GetMetricData')).toHaveLength(2);
  });

  it('caps attempts when throttling persists, then says so', async () => {
    const cw = await startFake();
    cw.failNext('ListMetrics', 'Throttling', 10);
    const error = await caught(source(cw, { maxAttempts: 2 }).fetch(HOUR));
    expect(error.code).toBe('burnrate_cloudwatch_throttled');
    expect(error.message).toBe('CloudWatch in eu-west-1 kept throttling cloudwatch:ListMetrics (2 attempts).');
    expect(cw.callsOf('ListMetrics')).toHaveLength(2);
  });

  it('builds its own client: region, AWS_ENDPOINT_URL_CLOUDWATCH, credentials from the environment, capped attempts', async () => {
    const cw = await startFake();
    vi.stubEnv('AWS_ENDPOINT_URL_CLOUDWATCH', cw.endpoint);
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIDFROMENV');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'env-secret');
    vi.stubEnv('AWS_MAX_ATTEMPTS', undefined);
    const own = new CloudWatchGpuSource({ id: 'cw', region: 'us-east-2' });
    expect(own.type).toBe('cloudwatch');
    expect(own.permissions).toEqual(CLOUDWATCH_GPU_PERMISSIONS);
    expect(await own.fetch(HOUR)).toHaveLength(3);
    expect(cw.calls.every((c) => c.region === 'us-east-2' && c.accessKeyId === 'AKIDFROMENV')).toBe(true);

    cw.failNext('ListMetrics', 'Throttling', 10);
    const capped = await caught(new CloudWatchGpuSource({ id: 'cw', region: 'us-east-2', maxAttempts: 2 }).fetch(HOUR));
    expect(capped.code).toBe('burnrate_cloudwatch_throttled');
    expect(cw.callsOf('ListMetrics')).toHaveLength(1 + 2);
  });

  it('says CloudWatch is unreachable when nothing listens at the endpoint', async () => {
    const cw = await startFake();
    await cw.close();
    aws.started = undefined;
    const error = await caught(source(cw, { maxAttempts: 1 }).fetch(HOUR));
    expect(error.code).toBe('burnrate_cloudwatch_unreachable');
    expect(error.message).toBe('CloudWatch in eu-west-1 is unreachable (ECONNREFUSED).');
  });

  it('refuses a step CloudWatch has no period for, before any call', async () => {
    const cw = await startFake();
    const error = await caught(source(cw).fetch({ ...HOUR, stepSeconds: 45 }));
    expect(error.code).toBe('burnrate_cloudwatch_step_invalid');
    expect(cw.calls).toHaveLength(0);
  });

  it('exports the permissions it needs', () => {
    expect(CLOUDWATCH_GPU_PERMISSIONS).toEqual(['cloudwatch:ListMetrics', 'cloudwatch:GetMetricData']);
  });
});

describe('CloudWatchGpuSource host peaks', () => {
  const DAY: MetricsRange = { start: START, end: START + 86_400, stepSeconds: 60 };
  const ID = 'i-0a1b2c3d4e5f60718';
  // CPU: 5-minute averages cycling 10, 20, ..., 100 %; memory: 40 % but 90 % for two hours of the day (8 % of it).
  const cpu = (t: number) => 10 * (1 + (Math.floor((t - START) / 300) % 10));
  const memory = (t: number) => (t >= START + 3600 && t < START + 3 * 3600 ? 90 : 40);

  it('reads EC2 CPUUtilization and the agent mem_used_percent of each instance, as shares at the 95th percentile', async () => {
    const cw = await startFake({
      ...FLEET,
      hostMetrics: [
        { Namespace: 'AWS/EC2', MetricName: 'CPUUtilization', Dimensions: { InstanceId: ID }, fn: cpu },
        { Namespace: 'CWAgent', MetricName: 'mem_used_percent', Dimensions: { host: 'ip-10-0-1-17', InstanceId: ID }, fn: memory },
      ],
    });
    const peaks = await source(cw).hostPeaks(DAY, [ID, 'i-0fffffffffffffff0', 'projects/p/zones/z/instances/x']);

    // By hand, the nearest-rank 95th percentile of the 288 five-minute samples of the day:
    const cpuSamples = Array.from({ length: 288 }, (_, i) => cpu(START + i * 300)).sort((a, b) => a - b);
    const memorySamples = Array.from({ length: 288 }, (_, i) => memory(START + i * 300)).sort((a, b) => a - b);
    const rank = Math.ceil(288 * 0.95) - 1;
    expect(peaks).toEqual([
      { host: ID, cpu: { share: cpuSamples[rank]! / 100 }, memory: { share: memorySamples[rank]! / 100 } },
      // An instance without figures is returned without them; ids that are not EC2's are not asked for.
      { host: 'i-0fffffffffffffff0', cpu: null, memory: null },
    ]);
    expect(peaks[0]!.cpu).toEqual({ share: 1 });
    expect(peaks[0]!.memory).toEqual({ share: 0.9 });
    expect(cw.callsOf('ListMetrics').map((c) => c.input)).toEqual([{ Namespace: 'CWAgent', MetricName: 'mem_used_percent' }]);
    const queries = cw.callsOf('GetMetricData').flatMap((c) => c.input.MetricDataQueries);
    expect(queries.map((q: { Id: string; MetricStat: { Period: number } }) => [q.Id, q.MetricStat.Period])).toEqual([
      ['c0', 300],
      ['r0', 300],
      ['c1', 300],
    ]);
  });

  it('explains a missing permission as the GPU fetch does', async () => {
    const cw = await startFake(FLEET);
    cw.failNext('ListMetrics', 'AccessDenied');
    const error = await caught(source(cw, { maxAttempts: 1 }).hostPeaks(DAY, [ID]));
    expect(error.message + error.hint).toContain('cloudwatch:ListMetrics');
  });
});
