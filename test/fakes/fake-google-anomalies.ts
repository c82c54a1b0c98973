import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FAKE_GOOGLE_TOKEN, sendError, sendJson } from './fake-google-cloud.js';

/** A recorded anomalies.list request. */
export interface AnomaliesCall {
  parent: string;
  query: URLSearchParams;
  token: string | null;
}

/**
 * The Cloud Billing API's anomalies (v1beta, REST) on 127.0.0.1: `GET /v1beta/{parent}/anomalies`
 * for `projects/{project}` and `billingAccounts/{id}` parents, with `filter` (start_time and
 * end_time as YYYYMMDD, both days included, as Google's filter reads them), `pageSize` (at most
 * 1000) and `pageToken`; anomalies as proto3 JSON (Money with units as a string). Every request
 * must carry the fake's bearer token; errors have Google's shape. The API has no feedback method:
 * any other request is unexpected and fails `assertNoUnexpectedCalls()`.
 */
export class FakeGoogleAnomalies {
  readonly calls: AnomaliesCall[] = [];
  readonly unexpected: string[] = [];
  private denyNext = 0;

  private constructor(
    private readonly server: Server,
    readonly endpoint: string,
    private readonly anomalies: Record<string, readonly Record<string, unknown>[]>,
    private readonly perPage: number,
  ) {}

  /** `anomalies` per parent; `perPage`: the most a page holds whatever the request asks. */
  static async start(anomalies: Record<string, readonly Record<string, unknown>[]>, perPage = 1000): Promise<FakeGoogleAnomalies> {
    let fake: FakeGoogleAnomalies | undefined;
    const server = createServer((req, res) => fake?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    fake = new FakeGoogleAnomalies(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, anomalies, perPage);
    return fake;
  }

  /** The next `times` requests are refused with 403 PERMISSION_DENIED. */
  failNext(times = 1): void {
    this.denyNext += times;
  }

  assertNoUnexpectedCalls(): void {
    if (this.unexpected.length > 0) throw new Error(`FakeGoogleAnomalies got unexpected calls:\n${this.unexpected.join('\n')}`);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', this.endpoint);
    const match = /^\/v1beta\/((?:projects|billingAccounts)\/[^/]+)\/anomalies$/.exec(url.pathname);
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? null;
    if (req.method !== 'GET' || !match) {
      this.unexpected.push(`${req.method} ${url.pathname}`);
      return sendError(res, 404, 'NOT_FOUND', `no route for ${req.method} ${url.pathname}`);
    }
    this.calls.push({ parent: match[1]!, query: url.searchParams, token });
    if (token !== FAKE_GOOGLE_TOKEN) return sendError(res, 401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
    if (this.denyNext > 0) {
      this.denyNext--;
      return sendError(res, 403, 'PERMISSION_DENIED', `Permission 'billing.anomalies.list' denied on resource '${match[1]}'.`, 'forbidden');
    }
    const window = /^start_time = "(\d{8})" AND end_time = "(\d{8})"$/.exec(url.searchParams.get('filter') ?? '');
    if (!window) return sendError(res, 400, 'INVALID_ARGUMENT', `Invalid filter: ${url.searchParams.get('filter')}`);
    const pageSize = Number(url.searchParams.get('pageSize') ?? 50);
    if (!(pageSize >= 1 && pageSize <= 1000)) return sendError(res, 400, 'INVALID_ARGUMENT', 'page_size must be between 1 and 1000');
    const day = (a: Record<string, unknown>) =>
      String(a.detectionTime ?? '')
        .slice(0, 10)
        .replace(/-/g, '');
    const found = (this.anomalies[match[1]!] ?? []).filter((a) => day(a) >= window[1]! && day(a) <= window[2]!);
    const size = Math.min(pageSize, this.perPage);
    const offset = Number(url.searchParams.get('pageToken') || 0);
    const next = offset + size < found.length ? String(offset + size) : '';
    sendJson(res, { anomalies: found.slice(offset, offset + size), ...(next ? { nextPageToken: next } : {}) });
  }
}
