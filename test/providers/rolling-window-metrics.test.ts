import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GpuSeries, MetricsRange } from '../../src/domain/gpu-metrics.js';
import { CloudWatchGpuSource } from '../../src/providers/aws/cloudwatch/cloudwatch-source.js';
import { PrometheusGpuSource } from '../../src/providers/prometheus/prometheus-source.js';
import { RollingWindowMetrics } from '../../src/providers/rolling-window-metrics.js';
import { FakeCloudWatch, nvidiaSmiMetrics, readNvidiaSmiCapture } from '../fakes/fake-cloudwatch.js';
import { dcgmGpuLabelSets, FakePrometheus, type FakeDcgmGpu } from '../fakes/fake-prometheus.js';
import { isolateAwsEnv, TEST_AWS_CREDENTIALS } from '../support/aws-test-env.js';

const START = Date.UTC(2026, 10, 2, 7, 0, 0) / 1000;
const WINDOW = 2 * 3600;
const STEP = 60;
/** The check's window when it runs `minutes` after the first run. */
const windowAt = (minutes: number): MetricsRange => ({
  start: START + minutes * 60,
  end: START + WINDOW + minutes * 60,
  stepSeconds: STEP,
});

/**
 * Two GPUs from the shared DCGM exposition's label sets, with values that move every minute (so a
 * sample put in the wrong slot shows): one that works until minute 20 of the first window and
 * stops reporting, one that joins at minute 130 (after the first run).
 */
function movingFleet(): FakeDcgmGpu[] {
  const [a, b, c] = dcgmGpuLabelSets();
  const minute = (t: number) => (t - START) / 60;
  return [
    {
      labels: a!,
      metrics: {
        DCGM_FI_DEV_GPU_UTIL: (t) => minute(t) % 97,
        DCGM_FI_DEV_POWER_USAGE: (t) => 50 + (minute(t) % 13),
        DCGM_FI_DEV_FB_USED: (t) => 1000 + minute(t),
      },
    },
    { labels: b!, metrics: { DCGM_FI_DEV_GPU_UTIL: (t) => (minute(t) < 20 ? 90 : null) } },
    {
      labels: c!,
      metrics: { DCGM_FI_DEV_GPU_UTIL: (t) => (minute(t) >= 130 ? 3 : null), DCGM_FI_DEV_FB_USED: (t) => (minute(t) >= 130 ? 512 : null) },
    },
  ];
}

/** Comparable form: NaN as null, arrays as plain lists. */
function plain(series: GpuSeries[]) {
  const list = (a: ArrayLike<number> | null) => (a ? Array.from(a, (v) => (Number.isNaN(v) ? null : v)) : null);
  return series.map((s) => ({ ref: s.ref, times: list(s.times), util: list(s.util), power: list(s.power), mem: list(s.memUsedMiB) }));
}

let prom: FakePrometheus | undefined;

/** The starts of what one fetch asked Prometheus for: none when the kept window served it all. */
async function startsOf(rolling: RollingWindowMetrics, range: MetricsRange): Promise<number[]> {
  const before = prom!.requests.length;
  await rolling.fetch(range);
  return [...new Set(prom!.requests.slice(before).map((r) => r.start))];
}
let cw: FakeCloudWatch | undefined;

beforeEach(isolateAwsEnv);

afterEach(async () => {
  vi.unstubAllEnvs();
  prom?.assertNoUnexpectedRequests();
  cw?.assertNoUnexpectedCalls();
  await prom?.close();
  await cw?.close();
  prom = undefined;
  cw = undefined;
});

describe('the rolling metrics window', () => {
  it('asks Prometheus only for the samples since the last run, and returns what a full read returns', async () => {
    prom = await FakePrometheus.start({ gpus: movingFleet() });
    const rolling = new RollingWindowMetrics(new PrometheusGpuSource({ id: 'dcgm', url: prom.url }));

    const first = await rolling.fetch(windowAt(0));
    expect(new Set(prom.requests.map((r) => r.start))).toEqual(new Set([START]));
    expect(first.map((s) => s.ref.host).sort()).toEqual(['424773df46e0', '551bdf382151']);

    const before = prom.requests.length;
    const second = await rolling.fetch(windowAt(15));
    const followUp = prom.requests.slice(before);
    // One query per DCGM metric, each from the last run's end to the new end (Prometheus' end is the last evaluation time).
    expect(followUp).toHaveLength(4);
    expect(followUp.every((r) => r.start === START + WINDOW && r.end === START + WINDOW + 14 * 60 && r.step === STEP)).toBe(true);

    const full = await new PrometheusGpuSource({ id: 'dcgm', url: prom.url }).fetch(windowAt(15));
    expect(plain(second)).toEqual(plain(full));
    // The GPU that joined after the first run is there; the one silent since minute 20 is still in the window.
    expect(second.map((s) => s.ref.host).sort()).toEqual(['424773df46e0', '551bdf382151', 'ip-11111']);
    // All series of a fetch share one times array (the idle scan checks it for gaps once).
    expect(new Set(second.map((s) => s.times)).size).toBe(1);

    // Two hours later the silent GPU has no sample left in the window: dropped, as a full read drops it.
    const later = await rolling.fetch(windowAt(140));
    expect(plain(later)).toEqual(plain(await new PrometheusGpuSource({ id: 'dcgm', url: prom.url }).fetch(windowAt(140))));
    expect(later.map((s) => s.ref.host)).not.toContain('551bdf382151');
  });

  it('reads the whole window after a restart, when the clock went back, or when the step changed', async () => {
    prom = await FakePrometheus.start({ gpus: movingFleet() });
    const source = new PrometheusGpuSource({ id: 'dcgm', url: prom.url });
    const rolling = new RollingWindowMetrics(source);
    expect(await startsOf(rolling, windowAt(15))).toEqual([START + 15 * 60]);
    expect(await startsOf(rolling, windowAt(30))).toEqual([START + WINDOW + 15 * 60]);
    // A new process knows nothing: the first run reads everything.
    expect(await startsOf(new RollingWindowMetrics(source), windowAt(30))).toEqual([START + 30 * 60]);
    // The clock went back: nothing kept can be trusted to line up.
    expect(await startsOf(rolling, windowAt(20))).toEqual([START + 20 * 60]);
    expect(await startsOf(rolling, { ...windowAt(35), stepSeconds: 300 })).toEqual([START + 35 * 60]);
    // The same window again asks nothing at all.
    expect(await startsOf(rolling, { ...windowAt(35), stepSeconds: 300 })).toEqual([]);
  });

  it("keeps a window per step: the GPU check's readers at minutes and at hours, read in turn, each ask only what is new", async () => {
    prom = await FakePrometheus.start({ gpus: movingFleet() });
    const source = new PrometheusGpuSource({ id: 'dcgm', url: prom.url });
    const rolling = new RollingWindowMetrics(source);
    // The hourly anomaly judgement's window: six hours of hourly samples up to the idle window's end.
    const hoursAt = (minutes: number): MetricsRange => ({
      start: START + WINDOW - 6 * 3600 + minutes * 60,
      end: START + WINDOW + minutes * 60,
      stepSeconds: 3600,
    });
    expect(await startsOf(rolling, windowAt(0))).toEqual([START]);
    expect(await startsOf(rolling, hoursAt(0))).toEqual([START + WINDOW - 6 * 3600]);
    // Before, the hours' window replaced the minutes' one, and each of the two read its whole window on every run.
    expect(await startsOf(rolling, windowAt(60))).toEqual([START + WINDOW]);
    expect(await startsOf(rolling, hoursAt(60))).toEqual([START + WINDOW]);
    // What each kept window now holds is what a full read returns (the same windows again ask nothing).
    expect(plain(await rolling.fetch(windowAt(60)))).toEqual(plain(await source.fetch(windowAt(60))));
    expect(plain(await rolling.fetch(hoursAt(60)))).toEqual(plain(await source.fetch(hoursAt(60))));
  });

  it("drops another step's window not read for two hours, and reads it whole when it is asked for again", async () => {
    prom = await FakePrometheus.start({ gpus: movingFleet() });
    const rolling = new RollingWindowMetrics(new PrometheusGpuSource({ id: 'dcgm', url: prom.url }));
    const fiveMinutes = (end: number): MetricsRange => ({ start: START, end, stepSeconds: 300 });
    expect(await startsOf(rolling, fiveMinutes(START + WINDOW))).toEqual([START]);
    expect(await startsOf(rolling, windowAt(90))).toEqual([START + 90 * 60]);
    // Within two hours the five-minute window is still kept: only what is new is asked for.
    expect(await startsOf(rolling, fiveMinutes(START + WINDOW + 90 * 60))).toEqual([START + WINDOW]);
    expect(await startsOf(rolling, windowAt(215))).toEqual([START + 215 * 60]);
    // Its end is now more than two hours behind the minutes' read: dropped, so read whole.
    expect(await startsOf(rolling, fiveMinutes(START + WINDOW + 215 * 60))).toEqual([START]);
  });

  it('runs concurrent fetches one after the other, the second reading only what the first did not', async () => {
    prom = await FakePrometheus.start({ gpus: movingFleet() });
    const rolling = new RollingWindowMetrics(new PrometheusGpuSource({ id: 'dcgm', url: prom.url }));
    const [a, b] = await Promise.all([rolling.fetch(windowAt(0)), rolling.fetch(windowAt(1))]);
    expect(a[0]!.times[0]).toBe(START);
    expect(b[0]!.times[0]).toBe(START + 60);
    expect(prom.requests.map((r) => r.start).sort()).toEqual([...Array(4).fill(START), ...Array(4).fill(START + WINDOW)]);
  });

  it('asks CloudWatch from the last end less a 3-minute overlap, which fills datapoints that landed late', async () => {
    const load = readNvidiaSmiCapture('nvidia-h100-80gb-hbm3__590.48.01', 'load');
    let publishedUntil = START + WINDOW - 120; // the agent's last two minutes have not landed yet
    cw = await FakeCloudWatch.start({
      gpus: [
        {
          dimensions: { host: 'ip-10-0-1-17', index: '0', name: load.name, InstanceId: 'i-0a1b2c3d4e5f60718' },
          metrics: nvidiaSmiMetrics((t) => (t < publishedUntil ? load : null)),
        },
      ],
    });
    const client = new CloudWatchClient({ region: 'us-east-1', endpoint: cw.endpoint, credentials: TEST_AWS_CREDENTIALS, maxAttempts: 1 });
    const rolling = new RollingWindowMetrics(new CloudWatchGpuSource({ id: 'cw', region: 'us-east-1', client }), { overlapSeconds: 180 });

    const first = await rolling.fetch(windowAt(0));
    expect(Number.isNaN(first[0]!.util[WINDOW / 60 - 1]!)).toBe(true);
    publishedUntil = START + WINDOW + 15 * 60;
    const second = await rolling.fetch(windowAt(15));

    expect(cw.callsOf('GetMetricData').map((c) => c.input.StartTime)).toEqual([START, START + WINDOW - 180]);
    expect(cw.callsOf('GetMetricData').map((c) => c.input.EndTime)).toEqual([START + WINDOW, START + WINDOW + 15 * 60]);
    // The late minutes are filled now: no gap left anywhere in the window.
    expect(second[0]!.util.every((v) => v === load.utilizationGpu)).toBe(true);
    expect(second[0]!.util.length).toBe(WINDOW / 60);
  });
});
