import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody, sigV4Scope } from './http-body.js';
import { sendAwsJson, sendAwsJsonError } from './aws-json-protocol.js';

/** Value of one metric of one GPU at a period start; null means no datapoint (a gap). */
export type SampleFn = (time: number) => number | null;

/** A GPU as the CloudWatch agent publishes it: its dimension set and a generator per metric name. */
export interface FakeCloudWatchGpu {
  dimensions: Record<string, string>;
  metrics: Partial<Record<string, SampleFn>>;
}

/** One call as the fake saw it; `input` is the decoded JSON body. */
export interface CloudWatchCall {
  operation: string;
  input: any;
  /** From the SigV4 Authorization header's credential scope. */
  accessKeyId: string | undefined;
  region: string | undefined;
  service: string | undefined;
}

export type CloudWatchFailure = 'AccessDenied' | 'Throttling';

export interface FakeCloudWatchOptions {
  gpus?: readonly FakeCloudWatchGpu[];
  namespace?: string;
  /** ListMetrics page size (CloudWatch: 500). */
  listPageSize?: number;
  /** Datapoints per GetMetricData answer before it paginates (CloudWatch: 100,800). */
  maxDatapointsPerPage?: number;
  /** More metrics in the namespace (the agent's cpu/mem/disk, GPU rollups without index). */
  extraMetrics?: readonly { MetricName: string; Dimensions: Record<string, string> }[];
  /** Metrics with samples in any namespace: EC2's CPUUtilization (AWS/EC2), the agent's mem_used_percent. */
  hostMetrics?: readonly { Namespace: string; MetricName: string; Dimensions: Record<string, string>; fn: SampleFn }[];
}

const TARGET_PREFIX = 'GraniteServiceVersion20100801.';
const OPERATIONS = ['ListMetrics', 'GetMetricData'] as const;

interface StoredMetric {
  Namespace: string;
  MetricName: string;
  Dimensions: { Name: string; Value: string }[];
  fn: SampleFn | undefined;
}

/**
 * CloudWatch on 127.0.0.1 for tests, speaking the wire protocol of the pinned
 * @aws-sdk/client-cloudwatch (3.1164.0): awsJson1_0 with AWS query compatibility, i.e.
 * `POST /` with `Content-Type: application/x-amz-json-1.0`, `X-Amz-Target:
 * GraniteServiceVersion20100801.<Operation>`, `x-amzn-query-mode: true`, JSON bodies with
 * timestamps as epoch seconds, and errors as `{"__type", "message"}` plus an
 * `x-amzn-query-error: <Code>;Sender` header. ListMetrics and GetMetricData paginate with
 * NextToken; AccessDenied and Throttling can be injected. Every call is recorded; an unknown
 * operation or a malformed request fails `assertNoUnexpectedCalls()`.
 */
export class FakeCloudWatch {
  readonly calls: CloudWatchCall[] = [];
  readonly unexpected: string[] = [];
  private readonly failures = new Map<string, CloudWatchFailure[]>();
  private readonly metrics: StoredMetric[];
  private readonly metricIndex = new Map<string, StoredMetric>();

  private constructor(
    private readonly server: Server,
    readonly endpoint: string,
    private readonly options: FakeCloudWatchOptions,
  ) {
    const namespace = options.namespace ?? 'CWAgent';
    this.metrics = [];
    for (const gpu of options.gpus ?? []) {
      for (const [MetricName, fn] of Object.entries(gpu.metrics))
        this.metrics.push({ Namespace: namespace, MetricName, Dimensions: toDimensions(gpu.dimensions), fn });
    }
    for (const extra of options.extraMetrics ?? [])
      this.metrics.push({ Namespace: namespace, MetricName: extra.MetricName, Dimensions: toDimensions(extra.Dimensions), fn: undefined });
    for (const m of options.hostMetrics ?? []) this.metrics.push({ ...m, Dimensions: toDimensions(m.Dimensions) });
    for (const m of this.metrics) this.metricIndex.set(metricKey(m.Namespace, m.MetricName, m.Dimensions), m);
  }

  static async start(options: FakeCloudWatchOptions = {}): Promise<FakeCloudWatch> {
    let fake: FakeCloudWatch | undefined;
    const server = createServer((req, res) => void fake?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    fake = new FakeCloudWatch(server, `http://127.0.0.1:${port}`, options);
    return fake;
  }

  callsOf(operation: (typeof OPERATIONS)[number]): CloudWatchCall[] {
    return this.calls.filter((c) => c.operation === operation);
  }

  /** The next `times` calls of `operation` fail this way. */
  failNext(operation: (typeof OPERATIONS)[number], failure: CloudWatchFailure, times = 1): void {
    const queue = this.failures.get(operation) ?? [];
    for (let i = 0; i < times; i++) queue.push(failure);
    this.failures.set(operation, queue);
  }

  assertNoUnexpectedCalls(): void {
    if (this.unexpected.length > 0) throw new Error(`FakeCloudWatch got unexpected calls:\n${this.unexpected.join('\n')}`);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const target = String(req.headers['x-amz-target'] ?? '');
    const operation = target.startsWith(TARGET_PREFIX) ? target.slice(TARGET_PREFIX.length) : target;
    const scope = sigV4Scope(req);
    let input: any;
    try {
      input = body ? JSON.parse(body) : {};
    } catch {
      input = undefined;
    }
    this.calls.push({ operation, input, accessKeyId: scope.accessKeyId, region: scope.region, service: scope.service });

    const problem =
      req.method !== 'POST' || req.url !== '/'
        ? `${req.method} ${req.url}`
        : req.headers['content-type'] !== 'application/x-amz-json-1.0'
          ? `content-type ${req.headers['content-type']}`
          : scope.service !== 'monitoring'
            ? 'request not signed with SigV4 for "monitoring"'
            : input === undefined
              ? 'body is not JSON'
              : !(OPERATIONS as readonly string[]).includes(operation)
                ? `operation ${target}`
                : undefined;
    if (problem) {
      this.unexpected.push(`${operation || '(no target)'}: ${problem}`);
      return sendError(res, 400, 'UnknownOperationException', 'com.amazon.coral.service#UnknownOperationException', 'Unexpected request');
    }
    const failure = this.failures.get(operation)?.shift();
    if (failure === 'AccessDenied') {
      return sendError(
        res,
        403,
        'AccessDenied',
        'com.amazon.coral.service#AccessDeniedException',
        `User: arn:aws:iam::123456789012:user/burnrate is not authorized to perform: cloudwatch:${operation} because no identity-based policy allows the cloudwatch:${operation} action`,
      );
    }
    if (failure === 'Throttling')
      return sendError(res, 400, 'Throttling', 'com.amazon.coral.availability#ThrottlingException', 'Rate exceeded');
    if (operation === 'ListMetrics') return this.listMetrics(input, res);
    return this.getMetricData(input, res);
  }

  private listMetrics(input: any, res: ServerResponse): void {
    const matches = this.metrics.filter(
      (m) =>
        (input.Namespace === undefined || m.Namespace === input.Namespace) &&
        (input.MetricName === undefined || m.MetricName === input.MetricName) &&
        ((input.Dimensions ?? []) as { Name: string; Value?: string }[]).every((f) =>
          m.Dimensions.some((d) => d.Name === f.Name && (f.Value === undefined || d.Value === f.Value)),
        ),
    );
    const pageSize = this.options.listPageSize ?? 500;
    const offset = input.NextToken ? (decodeToken(input.NextToken) as { offset: number }).offset : 0;
    const page = matches.slice(offset, offset + pageSize);
    const next = offset + pageSize < matches.length ? encodeToken({ offset: offset + pageSize }) : undefined;
    sendJson(res, {
      Metrics: page.map(({ Namespace, MetricName, Dimensions }) => ({ Namespace, MetricName, Dimensions })),
      ...(next ? { NextToken: next } : {}),
    });
  }

  private getMetricData(input: any, res: ServerResponse): void {
    const queries = (input.MetricDataQueries ?? []) as any[];
    const invalid = validateGetMetricData(input, queries);
    if (invalid) {
      this.unexpected.push(`GetMetricData: ${invalid}`);
      return sendError(res, 400, 'ValidationError', 'com.amazon.coral.validate#ValidationException', invalid);
    }
    const start = Number(input.StartTime);
    const end = Number(input.EndTime);
    const ascending = input.ScanBy === 'TimestampAscending';
    const limit = this.options.maxDatapointsPerPage ?? 100_800;
    let { query: q, point: p } = input.NextToken
      ? (decodeToken(input.NextToken) as { query: number; point: number })
      : { query: 0, point: 0 };
    let budget = limit;
    const results: any[] = [];
    while (q < queries.length && budget > 0) {
      const query = queries[q];
      const points = this.datapoints(query.MetricStat, start, end, ascending);
      const take = points.slice(p, p + budget);
      budget -= take.length;
      p += take.length;
      const done = p >= points.length;
      results.push({
        Id: query.Id,
        Label: query.Label ?? query.MetricStat.Metric.MetricName,
        Timestamps: take.map((x) => x[0]),
        Values: take.map((x) => x[1]),
        StatusCode: done ? 'Complete' : 'PartialData',
      });
      if (done) {
        q++;
        p = 0;
      }
    }
    const next = q < queries.length ? encodeToken({ query: q, point: p }) : undefined;
    sendJson(res, { MetricDataResults: results, Messages: [], ...(next ? { NextToken: next } : {}) });
  }

  /** [time, value] pairs at period boundaries in [start, end), as the stored metric's generator gives them. */
  private datapoints(stat: any, start: number, end: number, ascending: boolean): [number, number][] {
    const metric = this.metricIndex.get(metricKey(stat.Metric.Namespace, stat.Metric.MetricName, stat.Metric.Dimensions ?? []));
    if (!metric?.fn) return [];
    const period = Number(stat.Period);
    const out: [number, number][] = [];
    for (let t = Math.ceil(start / period) * period; t < end; t += period) {
      const v = metric.fn(t);
      if (v !== null) out.push([t, v]);
    }
    return ascending ? out : out.reverse();
  }
}

function validateGetMetricData(input: any, queries: any[]): string | undefined {
  if (queries.length === 0 || queries.length > 500)
    return `The collection MetricDataQueries must not have a size greater than 500 (got ${queries.length}).`;
  if (typeof input.StartTime !== 'number' || typeof input.EndTime !== 'number') return 'StartTime and EndTime must be epoch seconds';
  if (input.StartTime >= input.EndTime) return 'The parameter StartTime must be less than the parameter EndTime.';
  const ids = new Set<string>();
  for (const q of queries) {
    if (typeof q.Id !== 'string' || !/^[a-z][a-zA-Z0-9_]*$/.test(q.Id)) return `Invalid metric data query id ${q.Id}`;
    if (ids.has(q.Id)) return `Duplicate metric data query id ${q.Id}`;
    ids.add(q.Id);
    const period = q.MetricStat?.Period;
    if (!q.MetricStat?.Metric?.MetricName || !q.MetricStat.Stat) return `Query ${q.Id} has no MetricStat`;
    if (!(period > 0) || !([1, 5, 10, 30].includes(period) || period % 60 === 0))
      return `Query ${q.Id}: the Period must be 1, 5, 10, 30 or a multiple of 60`;
  }
  return undefined;
}

function toDimensions(record: Record<string, string>): { Name: string; Value: string }[] {
  return Object.entries(record).map(([Name, Value]) => ({ Name, Value }));
}

/** CloudWatch matches a metric on its namespace, name and full dimension set, in any order. */
function metricKey(namespace: string, name: string, dimensions: readonly { Name: string; Value: string }[]): string {
  const dims = [...dimensions].sort((a, b) => a.Name.localeCompare(b.Name)).map((d) => `${d.Name}=${d.Value}`);
  return `${namespace}|${name}|${dims.join(',')}`;
}

function encodeToken(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64');
}

function decodeToken(token: string): unknown {
  return JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
}

function sendJson(res: ServerResponse, body: unknown): void {
  sendAwsJson(res, '1.0', body);
}

function sendError(res: ServerResponse, status: number, queryCode: string, type: string, message: string): void {
  sendAwsJsonError(res, '1.0', { status, type, message, queryCode });
}

// ---- Data: GPUs from the real nvidia-smi captures ----

export interface NvidiaSmiReading {
  name: string;
  index: string;
  utilizationGpu: number;
  memoryUsedMiB: number;
  powerDrawW: number;
}

const NVIDIA_SMI_DIR = new URL('../fixtures/nvidia_smi/', import.meta.url);

/** One `nvidia-smi --query-gpu` capture (H100 / L40S, idle / load) from the shared data. */
export function readNvidiaSmiCapture(
  gpu: 'nvidia-h100-80gb-hbm3__590.48.01' | 'nvidia-l40s__595.80',
  state: 'idle' | 'load',
): NvidiaSmiReading {
  const [header, row] = readFileSync(new URL(`nvidia_smi_query-gpu_${gpu}_${state}.csv`, NVIDIA_SMI_DIR), 'utf8').split('\n');
  const names = header!.split(', ');
  const values = row!.split(', ');
  const get = (column: string) => {
    const i = names.indexOf(column);
    if (i < 0) throw new Error(`no column ${column}`);
    return values[i]!;
  };
  return {
    name: get('name'),
    index: get('index'),
    utilizationGpu: Number.parseFloat(get('utilization.gpu [%]')),
    memoryUsedMiB: Number.parseFloat(get('memory.used [MiB]')),
    powerDrawW: Number.parseFloat(get('power.draw [W]')),
  };
}

/** The agent's three GPU metrics for a GPU that reads `reading(t)` at each period; null readings are gaps. */
export function nvidiaSmiMetrics(reading: (t: number) => NvidiaSmiReading | null): FakeCloudWatchGpu['metrics'] {
  return {
    nvidia_smi_utilization_gpu: (t) => reading(t)?.utilizationGpu ?? null,
    nvidia_smi_memory_used: (t) => reading(t)?.memoryUsedMiB ?? null,
    nvidia_smi_power_draw: (t) => reading(t)?.powerDrawW ?? null,
  };
}

/** `count` GPUs, four per instance, dimensions as the agent publishes them with append_dimensions InstanceId. */
export function generatedCloudWatchFleet(count: number): FakeCloudWatchGpu[] {
  const load = readNvidiaSmiCapture('nvidia-h100-80gb-hbm3__590.48.01', 'load');
  const idle = readNvidiaSmiCapture('nvidia-h100-80gb-hbm3__590.48.01', 'idle');
  return Array.from({ length: count }, (_, i) => ({
    dimensions: {
      host: `ip-10-1-${Math.floor(i / 4 / 250)}-${Math.floor(i / 4) % 250}`,
      index: String(i % 4),
      name: load.name,
      InstanceId: `i-${String(Math.floor(i / 4)).padStart(17, '0')}`,
    },
    metrics: nvidiaSmiMetrics(() => (i % 2 === 0 ? load : idle)),
  }));
}
