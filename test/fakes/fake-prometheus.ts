import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from './http-body.js';

/** Value of one metric of one GPU at an evaluation time; null means no sample (a gap). */
export type SampleFn = (time: number) => number | null;

/** A GPU as the fake serves it: the exporter's labels and a generator per DCGM metric name. */
export interface FakeDcgmGpu {
  labels: Record<string, string>;
  metrics: Partial<Record<string, SampleFn>>;
}

/**
 * A host as node_exporter reports it, by its scrape target (`10.0.1.23:9100`): the two figures
 * burnrate's host queries compute (vCPUs busy; memory total less available, in bytes).
 */
export interface FakeNodeHost {
  instance: string;
  cpuBusyCores?: SampleFn;
  memUsedBytes?: SampleFn;
}

/** One request as the fake saw it. */
export interface PrometheusRequest {
  method: string;
  path: string;
  query: string | undefined;
  start: number;
  end: number;
  step: number;
  /** The Authorization header as sent (the fake's token is a test value). */
  authorization: string | undefined;
  /** Every header as sent, for checking a SigV4 signature. */
  headers: IncomingHttpHeaders;
  /** The query string exactly as sent (a signature covers it). */
  rawQuery: string;
}

export type PrometheusFailure =
  | { status: 401 | 403 }
  | { status: 500 | 502; body: string }
  | { status: 400 | 422 | 503; errorType: string; error: string };

const MAX_POINTS = 11_000;

export const DCGM_EXPOSITION = new URL('../fixtures/dcgm/dcgm_exposition_datadog_integrations-core_fixture_excerpt.prom', import.meta.url);
/** MIG: one H100 in three slices (4g, 2g, 1g), a pod on each; every slice idle. */
export const MIG_H100_EXPOSITION = new URL('../fixtures/dcgm/dcgm_exposition_mig_h100_3_slices.prom', import.meta.url);
/** MIG: two A30s, GPU 0 in two 2g slices (one holding 9 GiB and computing nothing), GPU 1 one 4g slice. */
export const MIG_A30_EXPOSITION = new URL('../fixtures/dcgm/dcgm_exposition_mig_a30_3_slices_2_gpus.prom', import.meta.url);

/** dcgm-exporter 4.x on a node whose GPUs are allocated by DRA: `hostname`, `dra_*` labels, a shared claim, a MIG device; every GPU idle. */
export const DCGM_4X_DRA_EXPOSITION = new URL('../fixtures/dcgm/dcgm_exposition_4x_dra_h100.prom', import.meta.url);

/**
 * A Prometheus HTTP API on 127.0.0.1 for tests. It answers GET/POST /api/v1/query_range like
 * Prometheus does (matrix answers, `max by (...)` projection, the 11,000-points limit, its error
 * bodies), optionally requires a bearer token, plays 401/5xx/`status:error` on request and records
 * every request. Anything else is answered 404 and fails `assertNoUnexpectedRequests()`.
 */
export class FakePrometheus {
  readonly requests: PrometheusRequest[] = [];
  readonly unexpected: string[] = [];
  private readonly failures: PrometheusFailure[] = [];
  private readonly failing: { pattern: RegExp; failure: PrometheusFailure }[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private gpus: readonly FakeDcgmGpu[],
    private token: string | undefined,
    private readonly hosts: readonly FakeNodeHost[],
    private readonly basePath: string,
  ) {}

  /** `basePath`: where the API is mounted, e.g. Managed Service for Prometheus' /v1/projects/p/location/global/prometheus; `url` includes it. */
  static async start(
    options: { gpus?: readonly FakeDcgmGpu[]; token?: string; hosts?: readonly FakeNodeHost[]; basePath?: string } = {},
  ): Promise<FakePrometheus> {
    let fake: FakePrometheus | undefined;
    const server = createServer((req, res) => void fake?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const basePath = options.basePath ?? '';
    fake = new FakePrometheus(
      server,
      `http://127.0.0.1:${port}${basePath}`,
      options.gpus ?? [],
      options.token,
      options.hosts ?? [],
      basePath,
    );
    return fake;
  }

  /** The token accepted from now on, as a server does once a rotated token replaces the old one. */
  setToken(token: string): void {
    this.token = token;
  }

  setGpus(gpus: readonly FakeDcgmGpu[]): void {
    this.gpus = gpus;
  }

  /** The next `times` query_range requests fail this way. */
  failNext(failure: PrometheusFailure, times = 1): void {
    for (let i = 0; i < times; i++) this.failures.push(failure);
  }

  /** Every query_range whose query matches `pattern` fails this way (a broken recording rule, a missing exporter's alias). */
  failQueries(pattern: RegExp, failure: PrometheusFailure): void {
    this.failing.push({ pattern, failure });
  }

  assertNoUnexpectedRequests(): void {
    if (this.unexpected.length > 0) throw new Error(`FakePrometheus got unexpected requests:\n${this.unexpected.join('\n')}`);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    let params = url.searchParams;
    if (req.method === 'POST') params = new URLSearchParams(await readBody(req));
    const request: PrometheusRequest = {
      method: req.method ?? '',
      path: url.pathname,
      query: params.get('query') ?? undefined,
      start: Number(params.get('start')),
      end: Number(params.get('end')),
      step: Number(params.get('step')),
      authorization: req.headers.authorization,
      headers: req.headers,
      rawQuery: url.search.slice(1),
    };
    this.requests.push(request);

    if (url.pathname !== `${this.basePath}/api/v1/query_range` || (req.method !== 'GET' && req.method !== 'POST')) {
      this.unexpected.push(`${req.method} ${url.pathname}`);
      return send(res, 404, 'text/plain', '404 page not found\n');
    }
    if (this.token !== undefined && req.headers.authorization !== `Bearer ${this.token}`) {
      return send(res, 401, 'text/plain', 'Unauthorized\n');
    }
    const failure = this.failing.find((f) => f.pattern.test(request.query ?? ''))?.failure ?? this.failures.shift();
    if (failure) return sendFailure(res, failure);
    this.queryRange(request, res);
  }

  private queryRange(request: PrometheusRequest, res: ServerResponse): void {
    const { start, end, step } = request;
    if (!request.query)
      return sendError(res, 400, 'bad_data', 'invalid parameter "query": unknown position: parse error: no expression found in input');
    if (!Number.isFinite(start) || !Number.isFinite(end))
      return sendError(res, 400, 'bad_data', 'invalid parameter "start": cannot parse "" to a valid timestamp');
    if (end < start) return sendError(res, 400, 'bad_data', 'invalid parameter "end": end timestamp must not be before start time');
    if (!(step > 0))
      return sendError(
        res,
        400,
        'bad_data',
        'invalid parameter "step": zero or negative query resolution step widths are not accepted. Try a positive integer',
      );
    if ((end - start) / step > MAX_POINTS) {
      return sendError(
        res,
        400,
        'bad_data',
        'exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query resolution (?step=XX)',
      );
    }
    const node = parseNodeQuery(request.query);
    const parsed = parseQuery(request.query);
    if (node)
      return this.answer(
        res,
        request,
        this.hosts.map((h) => ({ labels: { instance: h.instance }, fn: h[node] })),
      );
    if (!parsed) {
      this.unexpected.push(`query the fake does not understand: ${request.query}`);
      return sendError(res, 400, 'bad_data', `1:1: parse error: unexpected query ${JSON.stringify(request.query)}`);
    }
    this.answer(
      res,
      request,
      this.gpus.map((gpu) => {
        // `a or b`: the first selector that selects this GPU's series answers for it.
        const chosen = parsed.selectors.find((s) => gpu.metrics[s.metric] && s.matchers.every((m) => m.test(gpu.labels[m.label] ?? '')));
        return { labels: project(gpu.labels, parsed), fn: chosen ? gpu.metrics[chosen.metric] : undefined };
      }),
    );
  }

  /** A matrix answer: each series' samples at the request's evaluation times (none where fn gives null). */
  private answer(
    res: ServerResponse,
    { start, end, step }: PrometheusRequest,
    series: { labels: object; fn: SampleFn | undefined }[],
  ): void {
    const points = Math.floor((end - start) / step + 1e-9) + 1;
    const chunks: string[] = [];
    for (const { labels, fn } of series) {
      if (!fn) continue;
      const values: string[] = [];
      for (let k = 0; k < points; k++) {
        const t = Math.round((start + k * step) * 1000) / 1000;
        const v = fn(t);
        if (v !== null) values.push(`[${t},"${formatValue(v)}"]`);
      }
      if (values.length === 0) continue;
      chunks.push(`{"metric":${JSON.stringify(labels)},"values":[${values.join(',')}]}`);
    }
    send(res, 200, 'application/json', `{"status":"success","data":{"resultType":"matrix","result":[${chunks.join(',')}]}}`);
  }
}

/** node_exporter's two expressions as PromQL spells them: vCPUs busy per target, memory in use per target. */
function parseNodeQuery(query: string): 'cpuBusyCores' | 'memUsedBytes' | null {
  const q = query.replace(/\s+/g, ' ').trim();
  if (/^sum by \(instance\) \(rate\(node_cpu_seconds_total\{mode!="idle"\}\[\d+[sm]\]\)\)$/.test(q)) return 'cpuBusyCores';
  if (q === 'max by (instance) (node_memory_MemTotal_bytes - node_memory_MemAvailable_bytes)') return 'memUsedBytes';
  return null;
}

/** A label matcher as PromQL has it: `=` compares, `=~` is an RE2 regex anchored at both ends. */
interface LabelTest {
  label: string;
  test: (value: string) => boolean;
}

interface Selector {
  metric: string;
  matchers: LabelTest[];
}

interface ParsedQuery {
  metric: string;
  /** `a or b{...} or ...`: series of any of them (a GPU reports one of the names). */
  selectors: Selector[];
  by: string[] | null;
}

const SELECTOR = /^\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(?:\{((?:[^}"]|"(?:[^"\\]|\\.)*")*)\})?\s*/;
const MATCHER = /^\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|=)\s*("(?:[^"\\]|\\.)*")\s*(?:,|$)/;

/** The shapes burnrate sends: a bare metric name, or `max by (labels) (selector or selector ...)`, a selector `name` or `name{label=~"re"}`. */
function parseQuery(query: string): ParsedQuery | null {
  const bare = /^\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\s*$/.exec(query);
  if (bare) return { metric: bare[1]!, selectors: [{ metric: bare[1]!, matchers: [] }], by: null };
  const agg = /^\s*max\s+by\s*\(([^)]*)\)\s*\((.*)\)\s*$/s.exec(query);
  if (!agg) return null;
  const selectors: Selector[] = [];
  let rest = agg[2]!;
  for (;;) {
    const sel = SELECTOR.exec(rest);
    if (!sel) return null;
    const matchers = parseMatchers(sel[2] ?? '');
    if (!matchers) return null;
    selectors.push({ metric: sel[1]!, matchers });
    rest = rest.slice(sel[0].length);
    if (rest === '') break;
    const or = /^or\s+/.exec(rest);
    if (!or) return null;
    rest = rest.slice(or[0].length);
  }
  return {
    metric: selectors[0]!.metric,
    selectors,
    by: agg[1]!
      .split(',')
      .map((l) => l.trim())
      .filter(Boolean),
  };
}

function parseMatchers(text: string): LabelTest[] | null {
  const out: LabelTest[] = [];
  let rest = text.trim();
  while (rest !== '') {
    const m = MATCHER.exec(rest);
    if (!m) return null;
    const value = JSON.parse(m[3]!) as string;
    if (m[2] === '=') out.push({ label: m[1]!, test: (v) => v === value });
    else {
      // RE2's (?i) flag as JavaScript's; JavaScript's regex syntax covers the rest burnrate sends.
      const insensitive = value.startsWith('(?i)');
      const re = new RegExp(`^(?:${insensitive ? value.slice(4) : value})$`, insensitive ? 'i' : '');
      out.push({ label: m[1]!, test: (v) => re.test(v) });
    }
    rest = rest.slice(m[0].length).trim();
  }
  return out;
}

function project(labels: Record<string, string>, query: ParsedQuery): Record<string, string> {
  if (!query.by) return { __name__: query.metric, ...labels };
  const out: Record<string, string> = {};
  for (const name of query.by) if (labels[name] !== undefined && labels[name] !== '') out[name] = labels[name]!;
  return out;
}

/** As Prometheus writes sample values (strconv 'f', -1; NaN and ±Inf spelled out). */
function formatValue(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Number.POSITIVE_INFINITY) return '+Inf';
  if (v === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(v);
}

function sendFailure(res: ServerResponse, failure: PrometheusFailure): void {
  if ('errorType' in failure) return sendError(res, failure.status, failure.errorType, failure.error);
  if ('body' in failure) return send(res, failure.status, 'text/html', failure.body);
  send(res, failure.status, 'text/plain', failure.status === 401 ? 'Unauthorized\n' : 'Forbidden\n');
}

function sendError(res: ServerResponse, status: number, errorType: string, error: string): void {
  send(res, status, 'application/json', JSON.stringify({ status: 'error', errorType, error }));
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'content-type': contentType });
  res.end(body);
}

// ---- Data: label sets from the real DCGM exposition, generated time series ----

export interface ExpositionSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The shared exposition's samples (a small Prometheus text-format reader: enough for this file). */
export function readDcgmExposition(path: URL = DCGM_EXPOSITION): ExpositionSample[] {
  const out: ExpositionSample[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line.trim());
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!.replace(/\\(.)/g, '$1');
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

/** One label set per GPU (Hostname + gpu) in the exposition, merged over its lines. */
export function dcgmGpuLabelSets(samples: readonly ExpositionSample[] = readDcgmExposition()): Record<string, string>[] {
  const byGpu = new Map<string, Record<string, string>>();
  for (const { labels } of samples) {
    if (!labels.Hostname || labels.gpu === undefined) continue;
    const key = `${labels.Hostname}/${labels.gpu}`;
    byGpu.set(key, { ...byGpu.get(key), ...labels });
  }
  return [...byGpu.values()];
}

/**
 * Every series of an exposition as the fake serves it, each value held for all time: one GPU per
 * host, GPU index, MIG slice (GPU_I_ID) and pod, so a GPU split in slices, or shared by the pods of
 * one ResourceClaim, is several series, as the exporter writes it.
 */
export function exposedGpus(path: URL): FakeDcgmGpu[] {
  const byKey = new Map<string, FakeDcgmGpu>();
  for (const { name, labels, value } of readDcgmExposition(path)) {
    const host = labels.Hostname ?? labels.hostname;
    if (!host || labels.gpu === undefined) continue;
    const key = `${host}/${labels.gpu}/${labels.GPU_I_ID ?? ''}/${labels.pod ?? ''}`;
    const gpu = byKey.get(key) ?? { labels: {}, metrics: {} };
    gpu.labels = { ...gpu.labels, ...labels };
    gpu.metrics[name] = constant(value);
    byKey.set(key, gpu);
  }
  return [...byKey.values()];
}

export const constant =
  (value: number): SampleFn =>
  () =>
    value;

/** `fn` except between `from` and `to` (seconds since the epoch, inclusive), where there is no sample. */
export const withGap =
  (fn: SampleFn, from: number, to: number): SampleFn =>
  (t) =>
    t >= from && t <= to ? null : fn(t);

/**
 * The three GPUs of the shared exposition, with series built on their labels:
 * - T4 on 424773df46e0: idle, at the exposition's own values (0 %, 8.969 W, 0 MiB);
 * - T4 on 551bdf382151: busy (96 %, 66 W near its 70 W limit, 14 GiB used);
 * - A10G on ip-11111 (pod ray-1111111 in ray-llm): busy with DCP metrics (GR_ENGINE_ACTIVE 0.8,
 *   GPU_UTIL 100), and a gap with no samples at all from `gap.from` to `gap.to`.
 */
export function exampleDcgmFleet(gap: { from: number; to: number }): FakeDcgmGpu[] {
  const samples = readDcgmExposition();
  const sets = dcgmGpuLabelSets(samples);
  const find = (host: string) => {
    const labels = sets.find((s) => s.Hostname === host);
    if (!labels) throw new Error(`exposition has no GPU on ${host}`);
    return labels;
  };
  const value = (name: string, host: string) => {
    const s = samples.find((x) => x.name === name && x.labels.Hostname === host);
    if (!s) throw new Error(`exposition has no ${name} on ${host}`);
    return s.value;
  };
  const idle = '424773df46e0';
  const g = (fn: SampleFn) => withGap(fn, gap.from, gap.to);
  return [
    {
      labels: find(idle),
      metrics: {
        DCGM_FI_DEV_GPU_UTIL: constant(value('DCGM_FI_DEV_GPU_UTIL', idle)),
        DCGM_FI_DEV_POWER_USAGE: constant(value('DCGM_FI_DEV_POWER_USAGE', idle)),
        DCGM_FI_DEV_FB_USED: constant(value('DCGM_FI_DEV_FB_USED', idle)),
        DCGM_FI_DEV_FB_FREE: constant(value('DCGM_FI_DEV_FB_FREE', idle)),
      },
    },
    {
      labels: find('551bdf382151'),
      metrics: {
        DCGM_FI_DEV_GPU_UTIL: constant(96),
        DCGM_FI_DEV_POWER_USAGE: constant(66),
        DCGM_FI_DEV_FB_USED: constant(14_336),
      },
    },
    {
      labels: find('ip-11111'),
      metrics: {
        DCGM_FI_PROF_GR_ENGINE_ACTIVE: g(constant(0.8)),
        DCGM_FI_DEV_GPU_UTIL: g(constant(100)),
        DCGM_FI_DEV_POWER_USAGE: g(constant(180.5)),
        DCGM_FI_DEV_FB_USED: g(constant(20_480)),
      },
    },
  ];
}

/**
 * `count` GPUs, eight per host, shaped like the exposition's A10G (pod, namespace, container and
 * the exporter's info labels); every third GPU is idle, the others busy.
 */
export function generatedDcgmFleet(count: number): FakeDcgmGpu[] {
  const template = dcgmGpuLabelSets().find((s) => s.pod !== undefined);
  if (!template) throw new Error('exposition has no GPU with pod labels');
  return Array.from({ length: count }, (_, i) => {
    const host = `ip-10-0-${Math.floor(i / 8 / 250)}-${Math.floor(i / 8) % 250}`;
    const busy = i % 3 !== 0;
    return {
      labels: {
        ...template,
        Hostname: host,
        gpu: String(i % 8),
        device: `nvidia${i % 8}`,
        UUID: `GPU-${String(i).padStart(8, '0')}-0000-0000-0000-000000000000`,
        pod: `ray-${Math.floor(i / 8)}`,
      },
      metrics: {
        DCGM_FI_PROF_GR_ENGINE_ACTIVE: constant(busy ? 0.75 : 0),
        DCGM_FI_DEV_GPU_UTIL: constant(busy ? 99 : 0),
        DCGM_FI_DEV_POWER_USAGE: (t) => (busy ? 200 + (t % 7) : 20),
        DCGM_FI_DEV_FB_USED: constant(busy ? 18_000 : 0),
      },
    };
  });
}
