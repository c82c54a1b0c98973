import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import type { GpuSeries, MetricsRange } from '../../../src/domain/gpu-metrics.js';
import { BurnrateError } from '../../../src/domain/errors.js';
import { PrometheusGpuSource } from '../../../src/providers/prometheus/prometheus-source.js';
import { constant, exampleDcgmFleet, FakePrometheus, generatedDcgmFleet, withGap } from '../../fakes/fake-prometheus.js';

const START = Date.UTC(2026, 10, 2, 7, 0, 0) / 1000;
const HOUR: MetricsRange = { start: START, end: START + 3600, stepSeconds: 60 };
const GAP = { from: START + 20 * 60, to: START + 34 * 60 };
const TOKEN = 'prom-test-token-7f3a9c';

let fake: FakePrometheus | undefined;

afterEach(async () => {
  fake?.assertNoUnexpectedRequests();
  await fake?.close();
  fake = undefined;
});

async function startFake(options: Parameters<typeof FakePrometheus.start>[0] = {}): Promise<FakePrometheus> {
  fake = await FakePrometheus.start(options);
  return fake;
}

function byHost(series: GpuSeries[], host: string): GpuSeries {
  const found = series.find((s) => s.ref.host === host);
  if (!found) throw new Error(`no series for ${host}`);
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

describe('PrometheusGpuSource', () => {
  it('returns one series per GPU of the DCGM exposition, with its labels, on the range grid', async () => {
    const prom = await startFake({ gpus: exampleDcgmFleet(GAP) });
    const source = new PrometheusGpuSource({ id: 'dcgm', url: prom.url });

    const series = await source.fetch(HOUR);

    expect(source.type).toBe('prometheus');
    expect(series.map((s) => s.ref)).toEqual([
      { host: '424773df46e0', gpu: '0', uuid: 'GPU-20c56d28-0da5-6d26-a36a-e7af1ce2586e', model: 'Tesla T4' },
      { host: '551bdf382151', gpu: '0', uuid: 'GPU-9ef1b6d0-3643-5dd7-b823-c0ec20dcf2d5', model: 'Tesla T4' },
      {
        host: 'ip-11111',
        gpu: '0',
        uuid: 'GPU-abc',
        model: 'NVIDIA A10G',
        namespace: 'ray-llm',
        pod: 'ray-1111111',
        container: 'ray-worker',
      },
    ]);
    for (const s of series) {
      expect(s.times).toBeInstanceOf(Float64Array);
      expect(s.util).toBeInstanceOf(Float32Array);
      expect(s.times.length).toBe(60);
      expect(s.util.length).toBe(60);
      expect(s.times[0]).toBe(START);
      expect(s.times[59]).toBe(START + 59 * 60);
    }
    const idle = byHost(series, '424773df46e0');
    expect([...idle.util].every((v) => v === 0)).toBe(true);
    expect(idle.power?.[0]).toBeCloseTo(8.969, 3);
    expect(idle.memUsedMiB?.[30]).toBe(0);
    const busy = byHost(series, '551bdf382151');
    expect([...busy.util].every((v) => v === 96)).toBe(true);
    expect(busy.power?.[10]).toBe(66);
    expect(busy.memUsedMiB?.[59]).toBe(14_336);
  });

  it('prefers GR_ENGINE_ACTIVE (×100) over GPU_UTIL where present, per GPU and per sample', async () => {
    const prom = await startFake({
      gpus: [
        {
          labels: { Hostname: 'a', gpu: '0' },
          metrics: {
            DCGM_FI_PROF_GR_ENGINE_ACTIVE: withGap(constant(0.25), START + 600, START + 600),
            DCGM_FI_DEV_GPU_UTIL: constant(100),
          },
        },
        { labels: { Hostname: 'b', gpu: '0' }, metrics: { DCGM_FI_DEV_GPU_UTIL: constant(42) } },
      ],
    });
    const series = await new PrometheusGpuSource({ id: 'dcgm', url: prom.url }).fetch(HOUR);

    const a = byHost(series, 'a');
    expect(a.util[0]).toBe(25);
    expect(a.util[10]).toBe(100); // GR_ENGINE_ACTIVE missing at this one sample: GPU_UTIL fills in
    expect(a.util[11]).toBe(25);
    expect([...byHost(series, 'b').util].every((v) => v === 42)).toBe(true);
    // No power or memory series at all for these GPUs: null, not an array of NaN.
    expect(a.power).toBeNull();
    expect(a.memUsedMiB).toBeNull();
  });

  it('turns gaps into NaN in every metric', async () => {
    const prom = await startFake({ gpus: exampleDcgmFleet(GAP) });
    const a10g = byHost(await new PrometheusGpuSource({ id: 'dcgm', url: prom.url }).fetch(HOUR), 'ip-11111');

    for (let i = 0; i < 60; i++) {
      const inGap = i >= 20 && i <= 34;
      for (const arr of [a10g.util, a10g.power!, a10g.memUsedMiB!]) expect(Number.isNaN(arr[i]!)).toBe(inGap);
    }
    expect(a10g.util[19]).toBeCloseTo(80, 4); // 0.8 GR_ENGINE_ACTIVE, not GPU_UTIL's 100
    expect(a10g.power![35]).toBe(180.5);
  });

  it('sends a handful of query_range requests for 1,000 GPUs: one per metric', async () => {
    const prom = await startFake({ gpus: generatedDcgmFleet(1000) });
    const series = await new PrometheusGpuSource({ id: 'dcgm', url: prom.url }).fetch(HOUR);

    expect(series).toHaveLength(1000);
    expect(prom.requests.length).toBeLessThanOrEqual(5);
    expect(prom.requests).toHaveLength(4);
    expect(prom.requests.map((r) => r.query).sort()).toEqual([
      expect.stringMatching(/\(DCGM_FI_DEV_FB_USED or dcgm_fb_used\)$/),
      expect.stringMatching(/\(DCGM_FI_DEV_GPU_UTIL or dcgm_gpu_utilization\)$/),
      expect.stringMatching(/\(DCGM_FI_DEV_POWER_USAGE or dcgm_power_usage\)$/),
      expect.stringMatching(/\(DCGM_FI_PROF_GR_ENGINE_ACTIVE or dcgm_fi_prof_gr_engine_active\)$/),
    ]);
    for (const r of prom.requests) {
      expect(r).toMatchObject({ method: 'GET', path: '/api/v1/query_range', start: START, end: START + 59 * 60, step: 60 });
    }
    const first = series[0]!;
    expect(first.ref).toMatchObject({ host: 'ip-10-0-0-0', gpu: '0', namespace: 'ray-llm', pod: 'ray-0', container: 'ray-worker' });
    expect(first.util[0]).toBe(0);
    expect(series[1]!.util[0]).toBeCloseTo(75, 4);
  });

  it('splits ranges longer than 11,000 points into several windows, seamlessly', async () => {
    const prom = await startFake({
      gpus: [{ labels: { Hostname: 'h', gpu: '3' }, metrics: { DCGM_FI_DEV_GPU_UTIL: (t) => ((t - START) / 60) % 100 } }],
    });
    const eightDays: MetricsRange = { start: START, end: START + 8 * 86_400, stepSeconds: 60 }; // 11,520 points

    const [series] = await new PrometheusGpuSource({ id: 'dcgm', url: prom.url }).fetch(eightDays);

    expect(prom.requests).toHaveLength(8); // 4 metrics × 2 windows
    const windows = prom.requests.filter((r) => r.query?.includes('DCGM_FI_DEV_GPU_UTIL')).sort((x, y) => x.start - y.start);
    expect(windows.map((r) => [r.start, r.end])).toEqual([
      [START, START + 10_999 * 60],
      [START + 11_000 * 60, START + 11_519 * 60],
    ]);
    expect(series!.times.length).toBe(11_520);
    for (const i of [0, 10_999, 11_000, 11_519]) expect(series!.util[i]).toBe(i % 100);
  });

  it('sends the bearer token only when one is configured', async () => {
    const open = await startFake({ gpus: exampleDcgmFleet(GAP) });
    await new PrometheusGpuSource({ id: 'dcgm', url: open.url }).fetch(HOUR);
    expect(open.requests.map((r) => r.authorization)).toEqual([undefined, undefined, undefined, undefined]);
    await open.close();

    const guarded = await startFake({ gpus: exampleDcgmFleet(GAP), token: TOKEN });
    const source = new PrometheusGpuSource({ id: 'dcgm', url: guarded.url, bearerToken: TOKEN });
    expect(await source.fetch(HOUR)).toHaveLength(3);
    expect(guarded.requests.map((r) => r.authorization)).toEqual(Array(4).fill(`Bearer ${TOKEN}`));
    // The token lives in a private field: not in JSON, not in inspect output.
    expect(JSON.stringify(source)).not.toContain(TOKEN);
    expect(inspect(source, { depth: 10, showHidden: true })).not.toContain(TOKEN);
  });

  it('explains HTTP 401 with the URL and what to check, never the token', async () => {
    const prom = await startFake({ gpus: exampleDcgmFleet(GAP), token: 'the-right-token' });

    const withToken = await caught(new PrometheusGpuSource({ id: 'dcgm', url: `${prom.url}/`, bearerToken: TOKEN }).fetch(HOUR));
    expect(withToken.code).toBe('burnrate_prometheus_unauthorized');
    expect(withToken.message).toBe(`Prometheus at ${prom.url} refused the request (HTTP 401).`);
    expect(withToken.hint).toMatch(/bearer token is current/);
    expect(withToken.describe()).not.toContain(TOKEN);
    expect(inspect(withToken)).not.toContain(TOKEN);

    const without = await caught(new PrometheusGpuSource({ id: 'dcgm', url: prom.url }).fetch(HOUR));
    expect(without.code).toBe('burnrate_prometheus_unauthorized');
    expect(without.hint).toMatch(/give the source a bearer token/);
  });

  it('explains HTTP 403', async () => {
    const prom = await startFake({ gpus: exampleDcgmFleet(GAP) });
    prom.failNext({ status: 403 }, 4);
    const error = await caught(new PrometheusGpuSource({ id: 'dcgm', url: prom.url, bearerToken: TOKEN }).fetch(HOUR));
    expect(error.code).toBe('burnrate_prometheus_unauthorized');
    expect(error.message).toContain('HTTP 403');
    expect(error.describe()).not.toContain(TOKEN);
  });

  it("passes on Prometheus' errorType and error for status:error answers", async () => {
    const prom = await startFake({ gpus: exampleDcgmFleet(GAP) });
    prom.failNext(
      { status: 422, errorType: 'execution', error: 'query processing would load too many samples into memory in query execution' },
      4,
    );
    const error = await caught(new PrometheusGpuSource({ id: 'dcgm', url: prom.url }).fetch(HOUR));
    expect(error.code).toBe('burnrate_prometheus_query_failed');
    expect(error.message).toBe(
      `Prometheus at ${prom.url} rejected a query (HTTP 422): execution: query processing would load too many samples into memory in query execution`,
    );
    expect(error.hint).toMatch(/query.max-samples/);
    expect(error.exitCode).toBe(1);
  });

  it('explains an HTTP 500 that is not a Prometheus answer (a proxy page)', async () => {
    const prom = await startFake({ gpus: exampleDcgmFleet(GAP) });
    prom.failNext({ status: 500, body: '<html><body>Internal Server Error</body></html>' }, 4);
    const error = await caught(new PrometheusGpuSource({ id: 'dcgm', url: prom.url }).fetch(HOUR));
    expect(error.code).toBe('burnrate_prometheus_http_error');
    expect(error.message).toBe(`Prometheus at ${prom.url} answered HTTP 500 with something that is not a Prometheus API answer.`);
  });

  it('says the URL is unreachable when nothing listens there', async () => {
    const prom = await startFake();
    const url = `${prom.url}/prometheus`;
    await prom.close();
    fake = undefined;
    const error = await caught(new PrometheusGpuSource({ id: 'dcgm', url, bearerToken: TOKEN }).fetch(HOUR));
    expect(error.code).toBe('burnrate_prometheus_unreachable');
    expect(error.message).toBe(`Prometheus at ${url} is unreachable (ECONNREFUSED).`);
    expect(error.describe()).not.toContain(TOKEN);
  });

  it('keeps a base path, and refuses URLs with credentials without echoing them', async () => {
    const calls: string[] = [];
    const fetchSpy: typeof fetch = async (input) => {
      calls.push(String(input));
      return new Response('{"status":"success","data":{"resultType":"matrix","result":[]}}', { status: 200 });
    };
    await new PrometheusGpuSource({ id: 'p', url: 'https://mimir.example/prometheus?x=1', fetch: fetchSpy }).fetch(HOUR);
    expect(calls).toHaveLength(4);
    expect(calls[0]).toMatch(/^https:\/\/mimir\.example\/prometheus\/api\/v1\/query_range\?query=max\+by/);

    const error = (() => {
      try {
        new PrometheusGpuSource({ id: 'p', url: 'https://user:s3cret@prom.example' });
      } catch (e) {
        return e as BurnrateError;
      }
      return undefined;
    })();
    expect(error?.code).toBe('burnrate_prometheus_url_invalid');
    expect(error?.describe()).not.toContain('s3cret');
  });

  it('ignores series it cannot tie to a GPU, such as the exposition’s unlabelled PROF metric', async () => {
    const prom = await startFake({
      gpus: [
        { labels: {}, metrics: { DCGM_FI_PROF_GR_ENGINE_ACTIVE: constant(0) } },
        { labels: { Hostname: 'h', gpu: '0' }, metrics: { DCGM_FI_DEV_GPU_UTIL: constant(5) } },
      ],
    });
    const series = await new PrometheusGpuSource({ id: 'dcgm', url: prom.url }).fetch(HOUR);
    expect(series.map((s) => s.ref)).toEqual([{ host: 'h', gpu: '0' }]);
    expect(series[0]!.util[0]).toBe(5);
  });

  it('returns nothing, without a request, for an empty range', async () => {
    const prom = await startFake();
    expect(await new PrometheusGpuSource({ id: 'dcgm', url: prom.url }).fetch({ start: START, end: START, stepSeconds: 60 })).toEqual([]);
    expect(prom.requests).toHaveLength(0);
  });
});

describe('PrometheusGpuSource host peaks', () => {
  // vCPUs busy: 2 most of the hour, 30 for the last 6 minutes (10% of it); memory: 100 GiB, 180 GiB for 2 minutes.
  const GIB = 1024 ** 3;
  const cpu = (t: number) => (t >= START + 54 * 60 ? 30 : 2);
  const memory = (t: number) => (t >= START + 10 * 60 && t < START + 12 * 60 ? 180 : 100) * GIB;

  it("reads node_exporter's vCPUs busy and memory in use per scrape target, at the 95th percentile", async () => {
    const prom = await startFake({
      hosts: [
        { instance: '10.0.1.23:9100', cpuBusyCores: cpu, memUsedBytes: memory },
        { instance: '10.0.1.24:9100', cpuBusyCores: () => 4 },
      ],
    });
    const peaks = await new PrometheusGpuSource({ id: 'dcgm', url: prom.url }).hostPeaks(HOUR);

    // By hand over the 61 evaluation times of the hour (both ends inclusive, as Prometheus counts):
    const times = Array.from({ length: 61 }, (_, i) => START + i * 60);
    const p95 = (values: number[]) => values.sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1]!;
    expect(peaks).toEqual([
      { host: '10.0.1.23:9100', cpu: { amount: p95(times.map(cpu)) }, memory: { amount: p95(times.map(memory)) / GIB } },
      { host: '10.0.1.24:9100', cpu: { amount: 4 }, memory: null },
    ]);
    expect(peaks[0]!.cpu).toEqual({ amount: 30 });
    expect(peaks[0]!.memory).toEqual({ amount: 100 });
    expect(prom.requests.map((r) => r.query)).toEqual([
      'sum by (instance) (rate(node_cpu_seconds_total{mode!="idle"}[300s]))',
      'max by (instance) (node_memory_MemTotal_bytes - node_memory_MemAvailable_bytes)',
    ]);
  });

  it('finds none where Prometheus scrapes no node_exporter', async () => {
    const prom = await startFake({ gpus: exampleDcgmFleet(GAP) });
    expect(await new PrometheusGpuSource({ id: 'dcgm', url: prom.url }).hostPeaks(HOUR)).toEqual([]);
  });
});
