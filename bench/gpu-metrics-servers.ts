// Minimal metrics backends for the GPU fetch benchmark: a Prometheus query_range API and the two
// CloudWatch operations burnrate calls (JSON 1.0), serving a generated fleet on 127.0.0.1 and
// counting what crosses the wire. The protocol fakes the tests use (test/fakes) check far more;
// these only need to answer correctly-formed requests and count them, and live in bench/ because
// the benchmark runs from the build output, which holds no test code.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WireCounts {
  requests: number;
  /** Response body bytes. */
  bytes: number;
}

/** A GPU of the generated fleet: its host, index, and whether it works (else idle). */
interface BenchGpu {
  host: string;
  instanceId: string;
  index: number;
  busy: boolean;
}

export function benchFleet(gpus: number, perHost: number): BenchGpu[] {
  return Array.from({ length: gpus }, (_, i) => {
    const host = Math.floor(i / perHost);
    return {
      host: `ip-10-${Math.floor(host / 250)}-${host % 250}-9`,
      instanceId: `i-${host.toString(16).padStart(17, '0')}`,
      index: i % perHost,
      busy: i % 3 !== 0,
    };
  });
}

/** Sample of a metric at time t: a busy GPU wanders around 90 %, an idle one sits at 0 with 9 W. */
function sample(metric: string, gpu: BenchGpu, t: number): number {
  const wobble = (t / 60 + gpu.index) % 7;
  if (metric.includes('ENGINE_ACTIVE')) return gpu.busy ? 0.8 + wobble / 100 : 0;
  if (metric.includes('POWER') || metric.includes('power')) return gpu.busy ? 250 + wobble : 9.5;
  if (metric.includes('FB_USED') || metric.includes('memory')) return gpu.busy ? 30_000 + wobble : 0;
  return gpu.busy ? 90 + wobble : 0;
}

interface Running {
  url: string;
  counts: WireCounts;
  close(): Promise<void>;
}

async function listen(handler: (req: IncomingMessage, body: string, res: ServerResponse, counts: WireCounts) => void): Promise<Running> {
  const counts: WireCounts = { requests: 0, bytes: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      counts.requests++;
      handler(req, Buffer.concat(chunks).toString('utf8'), res, counts);
    });
  });
  // Node closes idle keep-alive sockets after 5 s; with the client parsing in this same process,
  // that can land just as the client reuses one (ECONNRESET). Prometheus' Go server keeps them longer.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Writes a body in pieces, counting its bytes, and waits for the socket to drain when it is full:
 * answers of 100 MiB must not hold the event loop (the client runs in this process too).
 */
async function writeCounted(res: ServerResponse, counts: WireCounts, pieces: Iterable<string>, contentType: string): Promise<void> {
  res.writeHead(200, { 'content-type': contentType });
  for (const piece of pieces) {
    counts.bytes += Buffer.byteLength(piece);
    if (!res.write(piece)) await new Promise((resolve) => res.once('drain', resolve));
  }
  res.end();
}

/** GET /api/v1/query_range for `max by (...) (METRIC)`: one series per GPU, a sample per step. */
export function startBenchPrometheus(fleet: readonly BenchGpu[]): Promise<Running> {
  return listen((req, _body, res, counts) => {
    const params = new URL(req.url ?? '/', 'http://x').searchParams;
    const metric = /\((\w+)\)\s*$/.exec(params.get('query') ?? '')?.[1] ?? '';
    const [start, end, step] = ['start', 'end', 'step'].map((k) => Number(params.get(k)));
    function* answer(): Generator<string> {
      yield '{"status":"success","data":{"resultType":"matrix","result":[';
      for (let g = 0; g < fleet.length; g++) {
        const gpu = fleet[g]!;
        const points: string[] = [];
        for (let t = start!; t <= end!; t += step!) points.push(`[${t},"${sample(metric, gpu, t)}"]`);
        yield `${g > 0 ? ',' : ''}{"metric":{"Hostname":"${gpu.host}","gpu":"${gpu.index}","UUID":"GPU-${g}","modelName":"NVIDIA H100 80GB HBM3"},"values":[${points.join(',')}]}`;
      }
      yield ']}}';
    }
    void writeCounted(res, counts, answer(), 'application/json');
  });
}

export interface CloudWatchCounts {
  listMetricsCalls: number;
  getMetricDataCalls: number;
  /** MetricDataQueries summed over every GetMetricData call, continuations (NextToken) included. */
  metricsRequested: number;
  /** MetricDataQueries of first calls only (without NextToken): each metric once per batch. */
  metricsRequestedFirstPages: number;
  datapoints: number;
}

const DATAPOINTS_PER_CALL = 100_800;
const LIST_PAGE = 500;

/** ListMetrics and GetMetricData as CloudWatch answers them, paginated as CloudWatch does. */
export async function startBenchCloudWatch(fleet: readonly BenchGpu[]): Promise<Running & { cw: CloudWatchCounts }> {
  const cw: CloudWatchCounts = {
    listMetricsCalls: 0,
    getMetricDataCalls: 0,
    metricsRequested: 0,
    metricsRequestedFirstPages: 0,
    datapoints: 0,
  };
  const byHost = new Map(fleet.map((g) => [`${g.host}/${g.index}`, g]));
  const running = await listen((req, body, res, counts) => {
    const operation = String(req.headers['x-amz-target'] ?? '')
      .split('.')
      .pop();
    const input = JSON.parse(body || '{}') as Record<string, any>;
    const json = (value: unknown) => void writeCounted(res, counts, [JSON.stringify(value)], 'application/x-amz-json-1.0');
    if (operation === 'ListMetrics') {
      cw.listMetricsCalls++;
      const from = Number(input.NextToken ?? 0);
      const page = fleet.slice(from, from + LIST_PAGE).map((g) => ({
        Namespace: input.Namespace,
        MetricName: input.MetricName,
        Dimensions: [
          { Name: 'host', Value: g.host },
          { Name: 'index', Value: String(g.index) },
          { Name: 'name', Value: 'NVIDIA H100 80GB HBM3' },
          { Name: 'InstanceId', Value: g.instanceId },
        ],
      }));
      return json({ Metrics: page, ...(from + LIST_PAGE < fleet.length ? { NextToken: String(from + LIST_PAGE) } : {}) });
    }
    const queries = input.MetricDataQueries as {
      Id: string;
      MetricStat: { Metric: { MetricName: string; Dimensions: { Name: string; Value: string }[] }; Period: number };
    }[];
    cw.getMetricDataCalls++;
    cw.metricsRequested += queries.length;
    if (!input.NextToken) cw.metricsRequestedFirstPages += queries.length;
    // The continuation token says which query and which of its datapoints come next.
    let [q, p] = input.NextToken ? (input.NextToken as string).split(':').map(Number) : [0, 0];
    let room = DATAPOINTS_PER_CALL;
    const results = [];
    while (q! < queries.length && room > 0) {
      const { Metric, Period } = queries[q!]!.MetricStat;
      const dim = (name: string) => Metric.Dimensions.find((d) => d.Name === name)?.Value;
      const gpu = byHost.get(`${dim('host')}/${dim('index')}`)!;
      const first = Math.ceil(input.StartTime / Period) * Period;
      const total = Math.max(0, Math.ceil((input.EndTime - first) / Period));
      const take = Math.min(room, total - p!);
      const times = Array.from({ length: take }, (_, k) => first + (p! + k) * Period);
      results.push({
        Id: queries[q!]!.Id,
        Timestamps: times,
        Values: times.map((t) => sample(Metric.MetricName, gpu, t)),
        StatusCode: p! + take < total ? 'PartialData' : 'Complete',
      });
      cw.datapoints += take;
      room -= take;
      if (p! + take < total) p = p! + take;
      else [q, p] = [q! + 1, 0];
    }
    json({ MetricDataResults: results, Messages: [], ...(q! < queries.length ? { NextToken: `${q}:${p}` } : {}) });
  });
  return { ...running, cw };
}
