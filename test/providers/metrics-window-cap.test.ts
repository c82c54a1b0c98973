import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { afterEach, describe, expect, it } from 'vitest';
import type { MetricsRange } from '../../src/domain/gpu-metrics.js';
import { createStepGrid, MAX_SERIES_SAMPLES } from '../../src/domain/gpu-step-grid.js';
import { MAX_WASTE_DAYS } from '../../src/snapshots/waste-snapshot.js';
import { CloudWatchGpuSource } from '../../src/providers/aws/cloudwatch/cloudwatch-source.js';
import { DemoGpuMetrics } from '../../src/providers/demo/demo-gpu-metrics.js';
import { PrometheusGpuSource } from '../../src/providers/prometheus/prometheus-source.js';
import { FakeCloudWatch } from '../fakes/fake-cloudwatch.js';
import { FakePrometheus, generatedDcgmFleet } from '../fakes/fake-prometheus.js';
import { caughtBurnrateError, oneAwsFakePerTest, TEST_AWS_CREDENTIALS } from '../support/aws-test-env.js';
import { errorOf } from '../support/error-of.js';

// A metrics window is counted in samples before anything is asked or allocated: "0042-01" once
// became a month from year 42 to 1942, and the GPU window asked for 200 million samples per series.

const END = Date.UTC(2026, 10, 2) / 1000;
/** The month 0042-01 as Date.UTC used to make it: 1,900 years of five-minute samples. */
const CENTURIES: MetricsRange = {
  start: Date.UTC(1942, 1, 1) / 1000 - 1_900 * 365.25 * 86_400,
  end: Date.UTC(1942, 1, 1) / 1000,
  stepSeconds: 300,
};
/** The longest window burnrate reads: the waste diagnosis' 92 days at five minutes. */
const LONGEST_READ: MetricsRange = { start: END - MAX_WASTE_DAYS * 86_400, end: END, stepSeconds: 300 };

let prometheus: FakePrometheus | undefined;
const aws = oneAwsFakePerTest<FakeCloudWatch>();

afterEach(async () => {
  prometheus?.assertNoUnexpectedRequests();
  await prometheus?.close();
  prometheus = undefined;
});

describe('the cap on samples per series', () => {
  it('counts samples as (end - start) / step and refuses beyond the cap, naming the window', () => {
    expect(createStepGrid(LONGEST_READ).length).toBe(26_496);
    // The idle check's longest lookback (gpu.lookbackHours at most 336) at one sample a minute.
    expect(createStepGrid({ start: END - 336 * 3600, end: END, stepSeconds: 60 }).length).toBe(20_160);
    expect(createStepGrid({ start: 0, end: MAX_SERIES_SAMPLES * 60, stepSeconds: 60 }).length).toBe(MAX_SERIES_SAMPLES);
    const over = errorOf(() => createStepGrid({ start: 0, end: (MAX_SERIES_SAMPLES + 1) * 60, stepSeconds: 60 }));
    expect(over.code).toBe('burnrate_metrics_range_too_long');
    expect(over.message).toContain(`needs ${(MAX_SERIES_SAMPLES + 1).toLocaleString('en-US')} samples per series`);
    expect(over.hint).toContain('shorter period');
    for (const stepSeconds of [0, -60, Number.NaN, Number.POSITIVE_INFINITY, 1e-300])
      expect(['burnrate_metrics_range_invalid', 'burnrate_metrics_range_too_long']).toContain(
        errorOf(() => createStepGrid({ start: 0, end: 86_400, stepSeconds })).code,
      );
    expect(errorOf(() => createStepGrid({ start: Number.NEGATIVE_INFINITY, end: 0, stepSeconds: 60 })).code).toBe(
      'burnrate_metrics_range_invalid',
    );
  });

  it('Prometheus: a window past the cap sends no query; the longest one burnrate reads is read', async () => {
    prometheus = await FakePrometheus.start({ gpus: generatedDcgmFleet(2) });
    const source = new PrometheusGpuSource({ id: 'prom', url: prometheus.url });
    const error = await caughtBurnrateError(source.fetch(CENTURIES));
    expect(error.code).toBe('burnrate_metrics_range_too_long');
    expect(await caughtBurnrateError(source.hostPeaks(CENTURIES)).then((e) => e.code)).toBe('burnrate_metrics_range_too_long');
    expect(prometheus.requests).toEqual([]);
    await source.fetch(LONGEST_READ);
    expect(prometheus.requests.length).toBeGreaterThan(0);
  });

  it('CloudWatch: a window past the cap makes no call, for GPU series and for host peaks', async () => {
    aws.started = await FakeCloudWatch.start({ gpus: [] });
    const client = new CloudWatchClient({ region: 'eu-west-1', endpoint: aws.started.endpoint, credentials: TEST_AWS_CREDENTIALS });
    const source = new CloudWatchGpuSource({ id: 'cw', region: 'eu-west-1', client });
    expect((await caughtBurnrateError(source.fetch({ ...CENTURIES, stepSeconds: 60 }))).code).toBe('burnrate_metrics_range_too_long');
    expect((await caughtBurnrateError(source.hostPeaks(CENTURIES, ['i-0a1b2c3d4e5f60718']))).code).toBe('burnrate_metrics_range_too_long');
    expect(aws.started.calls).toEqual([]);
  });

  it('the demo fleet refuses it too, before allocating a sample', async () => {
    const demo = new DemoGpuMetrics({ seed: 42 });
    const before = process.memoryUsage().heapUsed;
    expect((await caughtBurnrateError(demo.fetch(CENTURIES))).code).toBe('burnrate_metrics_range_too_long');
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(50 * 1024 * 1024);
  });
});
