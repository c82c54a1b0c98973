import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer, readBody } from './http-body.js';
import { FAKE_ARM_TOKEN } from './fake-azure-resource-manager.js';

/** The metrics data plane API version @azure/monitor-query-metrics 1.0 speaks; the fake refuses any other. */
export const METRICS_BATCH_API_VERSION = '2024-02-01';

/** One GPU of a VM as Telegraf's nvidia_smi input reports it through its azure_monitor output: percent busy and MiB used at any time (seconds). */
export interface FakeTelegrafGpu {
  /** The VM's resource id as ARM spells it. */
  vmId: string;
  region: string;
  index: string;
  util: (t: number) => number;
  memoryUsedMiB?: (t: number) => number;
}

export interface MetricsBatchRequest {
  region: string;
  subscriptionId: string;
  query: URLSearchParams;
  resourceIds: string[];
}

/** Time grains Azure Monitor aggregates to, in seconds. */
const GRAINS: Record<string, number> = {
  PT1M: 60,
  PT5M: 300,
  PT15M: 900,
  PT30M: 1800,
  PT1H: 3600,
  PT6H: 21_600,
  PT12H: 43_200,
  P1D: 86_400,
};

const METRICS = ['utilization_gpu', 'memory_used'] as const;

/**
 * Azure Monitor's metrics batch API (`POST /subscriptions/{id}/metrics:getBatch`, the regional
 * data plane https://<region>.metrics.monitor.azure.com) on 127.0.0.1, as @azure/monitor-query-metrics
 * speaks it: the region is the first path segment here (the test gives each region's client its
 * own base URL), the body lists at most 50 resource ids of that subscription and region, the
 * query names the namespace, the metrics, the time grain, the aggregation and the dimension
 * filter. Each VM's metrics come back with one series per GPU `index` (only when the filter asks
 * to split by it, as Azure Monitor does), the grain's average at each grain's start. Like the
 * service it refuses a request without the bearer token (401) or the api-version (400), a
 * resource of another region or subscription (400), answers errors as `{ error: { code, message } }`
 * and throttles with 429 and Retry-After. A VM that publishes nothing gets its metrics with no series.
 */
export class FakeAzureMonitorMetrics {
  readonly requests: MetricsBatchRequest[] = [];
  readonly unexpected: string[] = [];
  private throttled = 0;
  private denied = false;

  private constructor(
    private readonly server: Server,
    private readonly port: number,
    readonly gpus: FakeTelegrafGpu[],
  ) {}

  static async start(gpus: FakeTelegrafGpu[]): Promise<FakeAzureMonitorMetrics> {
    let fake: FakeAzureMonitorMetrics | undefined;
    const server = createServer((req, res) => {
      void fake!.handle(req, res).catch((error: unknown) => {
        fake!.unexpected.push(String(error));
        monitorError(res, 500, 'InternalServerError', String(error));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    fake = new FakeAzureMonitorMetrics(server, (server.address() as AddressInfo).port, gpus);
    return fake;
  }

  /** The regional endpoint the SDK is given (https, carried over http by the test transport). */
  endpointOf(region: string): string {
    return `https://127.0.0.1:${this.port}/${region}`;
  }

  /** Answer the next `count` requests with 429 Too Many Requests (Retry-After: 0). */
  throttleNext(count: number): void {
    this.throttled = count;
  }

  /** Answer AuthorizationFailed from now on (the identity lacks Microsoft.Insights/metrics/read). */
  deny(): void {
    this.denied = true;
  }

  assertNoUnexpectedRequests(): void {
    if (this.unexpected.length > 0) throw new Error(`unexpected Azure Monitor requests: ${this.unexpected.join('; ')}`);
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const route = /^\/([a-z0-9]+)\/subscriptions\/([^/]+)\/metrics:getBatch$/i.exec(url.pathname);
    if (!route || req.method !== 'POST') {
      this.unexpected.push(`${req.method} ${url.pathname}`);
      return monitorError(res, 404, 'NotFound', `No route for ${url.pathname}.`);
    }
    const [, region, subscriptionId] = route;
    const refuse = (code: string, message: string) => {
      this.unexpected.push(`${code}: ${message}`);
      monitorError(res, 400, code, message);
    };
    if (req.headers.authorization !== `Bearer ${FAKE_ARM_TOKEN}`)
      return monitorError(res, 401, 'InvalidAuthenticationToken', 'The access token is invalid.');
    if (url.searchParams.get('api-version') !== METRICS_BATCH_API_VERSION)
      return refuse('MissingApiVersionParameter', 'The api-version query parameter (?api-version=) is required for all requests.');
    const resourceIds = (JSON.parse(body || '{}') as { resourceids?: string[] }).resourceids ?? [];
    this.requests.push({ region: region!, subscriptionId: subscriptionId!, query: url.searchParams, resourceIds });
    if (this.throttled > 0) {
      this.throttled -= 1;
      res.setHeader('Retry-After', '0');
      return monitorError(res, 429, 'TooManyRequests', 'The request is being throttled.');
    }
    if (this.denied)
      return monitorError(
        res,
        403,
        'AuthorizationFailed',
        `The client 'burnrate' does not have authorization to perform action 'Microsoft.Insights/metrics/read' over scope '/subscriptions/${subscriptionId}'.`,
      );
    if (resourceIds.length === 0 || resourceIds.length > 50)
      return refuse('BadRequest', 'Between 1 and 50 resource ids are allowed per batch.');
    const ofSubscription = (id: string) => id.toLowerCase().startsWith(`/subscriptions/${subscriptionId!.toLowerCase()}/`);
    if (!resourceIds.every(ofSubscription)) return refuse('BadRequest', 'All resource ids must be in the subscription of the request.');
    const namespace = url.searchParams.get('metricnamespace');
    if (namespace !== 'Telegraf/nvidia_smi') return refuse('BadRequest', `Unexpected metric namespace ${namespace}.`);
    const names = (url.searchParams.get('metricnames') ?? '').split(',');
    if (names.some((n) => !(METRICS as readonly string[]).includes(n)))
      return refuse('BadRequest', `Unknown metric names ${names.join(',')}.`);
    const grain = GRAINS[url.searchParams.get('interval') ?? ''];
    if (!grain) return refuse('BadRequest', `Unsupported interval ${url.searchParams.get('interval')}.`);
    if (url.searchParams.get('aggregation')?.toLowerCase() !== 'average') return refuse('BadRequest', 'Expected aggregation=average.');
    const start = Date.parse(url.searchParams.get('starttime') ?? '') / 1000;
    const end = Date.parse(url.searchParams.get('endtime') ?? '') / 1000;
    if (!Number.isFinite(start) || !(end > start)) return refuse('BadRequest', 'Expected starttime before endtime.');
    const byIndex = /\bindex eq '\*'/.test(url.searchParams.get('filter') ?? '');
    const top = Number(url.searchParams.get('top') ?? '10');
    const values = [];
    for (const resourceId of resourceIds) {
      const gpus = this.gpus.filter((g) => g.vmId.toLowerCase() === resourceId.toLowerCase());
      if (gpus.some((g) => g.region !== region))
        return refuse('BadRequest', `Resource ${resourceId} is not in region ${region}: a batch is of one region.`);
      values.push({
        starttime: new Date(start * 1000).toISOString(),
        endtime: new Date(end * 1000).toISOString(),
        interval: url.searchParams.get('interval'),
        namespace,
        resourceregion: region,
        resourceid: gpus[0]?.vmId ?? resourceId,
        value: names.map((name) => ({
          id: `${resourceId}/providers/Microsoft.Insights/metrics/${name}`,
          type: 'Microsoft.Insights/metrics',
          name: { value: name, localizedValue: name },
          displayDescription: '',
          unit: name === 'utilization_gpu' ? 'Percent' : 'Unspecified',
          errorCode: 'Success',
          timeseries: (byIndex ? gpus : gpus.slice(0, 1)).slice(0, top).map((gpu) => ({
            metadatavalues: byIndex ? [{ name: { value: 'index', localizedValue: 'index' }, value: gpu.index }] : [],
            data: grainStarts(start, end, grain).map((t) => ({
              timeStamp: new Date(t * 1000).toISOString(),
              average: name === 'utilization_gpu' ? gpu.util(t) : (gpu.memoryUsedMiB?.(t) ?? 0),
            })),
          })),
        })),
      });
    }
    res
      .writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'x-ms-request-id': randomUUID() })
      .end(JSON.stringify({ values }));
  }
}

/** Each grain's start within [start, end), on the grain's boundaries as Azure Monitor aligns them. */
function grainStarts(start: number, end: number, grain: number): number[] {
  const out: number[] = [];
  for (let t = Math.ceil(start / grain) * grain; t < end; t += grain) out.push(t);
  return out;
}

function monitorError(res: ServerResponse, status: number, code: string, message: string): void {
  res
    .writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-ms-request-id': randomUUID() })
    .end(JSON.stringify({ error: { code, message } }));
}
