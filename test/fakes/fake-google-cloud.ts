import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OAuth2Client } from 'google-auth-library';
import { runExportQuery, type FakeExportRow } from './fake-bigquery-export.js';
import { readBody } from './http-body.js';

export type GoogleFailure = 'PERMISSION_DENIED' | 'RATE_LIMITED' | 'UNAVAILABLE';
export type GoogleApi =
  | 'sts.token'
  | 'bigquery.query'
  | 'bigquery.getQueryResults'
  | 'budgets.list'
  | 'catalog.listSkus'
  | 'billing.getProjectBillingInfo';

export interface GoogleCall {
  api: GoogleApi;
  method: string;
  path: string;
  query: URLSearchParams;
  body: any;
  token: string | null;
}

export interface FakeGoogleCloudOptions {
  /** project.dataset.table of the billing export. */
  table?: string;
  exportRows?: readonly FakeExportRow[];
  /** Result rows per page of jobs.query / getQueryResults. */
  rowsPerPage?: number;
  /** Bytes the billing-export query would bill: over the request's maximumBytesBilled, BigQuery refuses it. */
  bytesPerQuery?: number;
  /** Budgets per billing account, as the REST API returns them (proto3 JSON). */
  budgets?: Record<string, readonly Record<string, unknown>[]>;
  budgetsPerPage?: number;
  /** SKUs per service id, proto3 JSON. */
  skus?: Record<string, readonly Record<string, unknown>[]>;
  skusPerPage?: number;
  projects?: Record<string, { billingAccountName: string; billingEnabled: boolean }>;
}

/** The only token the fake accepts; the auth client below presents it. */
export const FAKE_GOOGLE_TOKEN = 'ya29.fake-burnrate-test-token';

/**
 * A real google-auth-library client holding a pre-issued token: the Google clients authenticate
 * through it exactly as with Application Default Credentials, without Google's token endpoint or
 * metadata server.
 */
export function fakeGoogleAuth(token = FAKE_GOOGLE_TOKEN): OAuth2Client {
  const client = new OAuth2Client();
  client.setCredentials({ access_token: token, token_type: 'Bearer', expiry_date: Date.now() + 3_600_000 });
  return client;
}

/**
 * BigQuery (REST v2: jobs.query and getQueryResults with page tokens), Cloud Billing Budgets
 * (v1 REST: budgets.list), the Cloud Catalog (services.skus.list) and Cloud Billing
 * (projects.getBillingInfo) on 127.0.0.1, as the clients' HTTP/JSON transport speaks them. Every
 * request must carry the fake's bearer token; errors have Google's shape (`{error: {code, message,
 * status, errors}}`). Failures can be injected per API; calls are recorded and anything unexpected
 * fails `assertNoUnexpectedCalls()`.
 */
export class FakeGoogleCloud {
  readonly calls: GoogleCall[] = [];
  readonly unexpected: string[] = [];
  private readonly failures = new Map<GoogleApi, GoogleFailure[]>();
  private readonly jobs = new Map<string, (string | null)[][] & { fields?: string[] }>();

  private constructor(
    private readonly server: Server,
    readonly endpoint: string,
    private readonly options: FakeGoogleCloudOptions,
  ) {}

  static async start(options: FakeGoogleCloudOptions = {}): Promise<FakeGoogleCloud> {
    let fake: FakeGoogleCloud | undefined;
    const server = createServer((req, res) => void fake?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    fake = new FakeGoogleCloud(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, options);
    return fake;
  }

  /** How many bytes the export query would bill from now on. */
  setBytesPerQuery(bytes: number): void {
    (this.options as { bytesPerQuery?: number }).bytesPerQuery = bytes;
  }

  setExportRows(rows: readonly FakeExportRow[]): void {
    (this.options as { exportRows?: readonly FakeExportRow[] }).exportRows = rows;
  }

  callsOf(api: GoogleApi): GoogleCall[] {
    return this.calls.filter((c) => c.api === api);
  }

  failNext(api: GoogleApi, failure: GoogleFailure, times = 1): void {
    const queue = this.failures.get(api) ?? [];
    for (let i = 0; i < times; i++) queue.push(failure);
    this.failures.set(api, queue);
  }

  assertNoUnexpectedCalls(): void {
    if (this.unexpected.length > 0) throw new Error(`FakeGoogleCloud got unexpected calls:\n${this.unexpected.join('\n')}`);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    const url = new URL(req.url ?? '/', this.endpoint);
    const route = routeOf(req.method ?? '', url.pathname);
    let body: any = undefined;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = null;
    }
    const auth = String(req.headers.authorization ?? '');
    const token = auth.startsWith('Bearer ') ? auth.slice(7) : null;
    if (!route) {
      this.unexpected.push(`${req.method} ${url.pathname}`);
      return sendError(res, 404, 'NOT_FOUND', `No route ${req.method} ${url.pathname}`);
    }
    this.calls.push({ api: route.api, method: req.method ?? '', path: url.pathname, query: url.searchParams, body, token });
    if (route.api === 'sts.token') return exchangeGoogleToken(text, res, this.unexpected);
    if (token !== FAKE_GOOGLE_TOKEN)
      return sendError(
        res,
        401,
        'UNAUTHENTICATED',
        'Request had invalid authentication credentials. Expected OAuth 2 access token.',
        'authError',
      );
    const failure = this.failures.get(route.api)?.shift();
    if (failure === 'PERMISSION_DENIED')
      return sendError(res, 403, 'PERMISSION_DENIED', deniedMessage(route.api, route.params), 'accessDenied');
    if (failure === 'RATE_LIMITED')
      return sendError(res, 429, 'RESOURCE_EXHAUSTED', 'Quota exceeded for quota metric: Read requests per minute.', 'rateLimitExceeded');
    if (failure === 'UNAVAILABLE') return sendError(res, 503, 'UNAVAILABLE', 'The service is currently unavailable.', 'backendError');
    switch (route.api) {
      case 'bigquery.query':
        return this.query(route.params, body, res);
      case 'bigquery.getQueryResults':
        return this.queryResults(route.params, url.searchParams, res);
      case 'budgets.list':
        return sendJson(
          res,
          pageOf(this.options.budgets?.[route.params[0]!] ?? [], url.searchParams, this.options.budgetsPerPage ?? 100, 'budgets'),
        );
      case 'catalog.listSkus':
        return sendJson(
          res,
          pageOf(this.options.skus?.[route.params[0]!] ?? [], url.searchParams, this.options.skusPerPage ?? 5000, 'skus'),
        );
      case 'billing.getProjectBillingInfo': {
        const project = route.params[0]!;
        const info = this.options.projects?.[project];
        if (!info) return sendError(res, 404, 'NOT_FOUND', `Project ${project} not found`);
        return sendJson(res, { name: `projects/${project}/billingInfo`, projectId: project, ...info });
      }
    }
  }

  /** An external_account credential file (for GOOGLE_APPLICATION_CREDENTIALS) that exchanges the subject token in `subjectTokenFile` here. */
  externalAccountCredential(subjectTokenFile: string): object {
    return externalAccountCredentialAt(this.endpoint, subjectTokenFile);
  }

  private query(params: string[], body: any, res: ServerResponse): void {
    const table = this.options.table ?? '';
    if (!body || body.useLegacySql !== false) {
      this.unexpected.push('jobs.query: expected a GoogleSQL (useLegacySql: false) JSON body');
      return sendError(res, 400, 'INVALID_ARGUMENT', 'bad request', 'invalid');
    }
    const limit = Number(body.maximumBytesBilled);
    if (!(limit > 0)) {
      this.unexpected.push('jobs.query: no maximumBytesBilled cap');
      return sendError(res, 400, 'INVALID_ARGUMENT', 'no cap', 'invalid');
    }
    const bytes = this.options.bytesPerQuery ?? 1e9;
    if (bytes > limit)
      return sendError(
        res,
        400,
        'INVALID_ARGUMENT',
        `Query exceeded limit for bytes billed: ${limit}. ${bytes} or higher required.`,
        'bytesBilledLimitExceeded',
      );
    const result = runExportQuery(String(body.query), body.queryParameters ?? [], table, this.options.exportRows ?? []);
    if (result.problem) {
      this.unexpected.push(`jobs.query: ${result.problem}`);
      return sendError(res, 400, 'INVALID_ARGUMENT', result.problem, 'invalidQuery');
    }
    const jobId = `job_${randomUUID().replace(/-/g, '')}`;
    const rows = Object.assign(result.values!, { fields: result.fields! });
    this.jobs.set(jobId, rows);
    sendJson(res, {
      kind: 'bigquery#queryResponse',
      jobReference: { projectId: params[0], jobId, location: body.location ?? 'US' },
      jobComplete: true,
      ...this.page(rows, 0),
    });
  }

  private queryResults(params: string[], query: URLSearchParams, res: ServerResponse): void {
    const rows = this.jobs.get(params[1]!);
    if (!rows) return sendError(res, 404, 'NOT_FOUND', `Not found: Job ${params[0]}:${params[1]}`, 'notFound');
    const offset = query.get('pageToken') ? Number(query.get('pageToken')) : 0;
    sendJson(res, {
      kind: 'bigquery#getQueryResultsResponse',
      jobReference: { projectId: params[0], jobId: params[1] },
      jobComplete: true,
      ...this.page(rows, offset),
    });
  }

  private page(rows: (string | null)[][] & { fields?: string[] }, offset: number): Record<string, unknown> {
    const size = this.options.rowsPerPage ?? 10_000;
    const slice = rows.slice(offset, offset + size);
    const types: Record<string, string> = { cost: 'FLOAT', net: 'FLOAT', usage_hours: 'INTEGER' };
    return {
      schema: { fields: (rows.fields ?? []).map((name) => ({ name, type: types[name] ?? 'STRING', mode: 'NULLABLE' })) },
      rows: slice.map((r) => ({ f: r.map((v) => ({ v })) })),
      totalRows: String(rows.length),
      ...(offset + size < rows.length ? { pageToken: String(offset + size) } : {}),
    };
  }
}

/**
 * Workload identity federation's token exchange (an `external_account` credential whose token_url
 * is a fake): a process started with GOOGLE_APPLICATION_CREDENTIALS authenticates the way it
 * would on a cluster, and gets the fake's token. A subject token of "revoked" is refused.
 */
export function exchangeGoogleToken(text: string, res: ServerResponse, unexpected: string[]): void {
  const form = new URLSearchParams(text);
  if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:token-exchange' || !form.get('subject_token')) {
    unexpected.push(`token exchange: ${text}`);
    return sendError(res, 400, 'INVALID_ARGUMENT', 'invalid_request');
  }
  if (form.get('subject_token')?.trim() === 'revoked') {
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'invalid_grant', error_description: 'The subject token is invalid or expired.' }));
    return;
  }
  sendJson(res, {
    access_token: FAKE_GOOGLE_TOKEN,
    issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
    token_type: 'Bearer',
    expires_in: 3600,
  });
}

/** An external_account credential (the file GOOGLE_APPLICATION_CREDENTIALS names) that exchanges the subject token in `subjectTokenFile` at `endpoint`. */
export function externalAccountCredentialAt(endpoint: string, subjectTokenFile: string): object {
  return {
    type: 'external_account',
    audience: '//iam.googleapis.com/projects/123456/locations/global/workloadIdentityPools/burnrate/providers/test',
    subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
    token_url: `${endpoint}/v1/token`,
    credential_source: { file: subjectTokenFile },
  };
}

function routeOf(method: string, path: string): { api: GoogleApi; params: string[] } | undefined {
  const table: [string, RegExp, GoogleApi][] = [
    ['POST', /^\/v1\/token$/, 'sts.token'],
    ['POST', /^\/bigquery\/v2\/projects\/([^/]+)\/queries$/, 'bigquery.query'],
    ['GET', /^\/bigquery\/v2\/projects\/([^/]+)\/queries\/([^/]+)$/, 'bigquery.getQueryResults'],
    ['GET', /^\/v1\/billingAccounts\/([^/]+)\/budgets$/, 'budgets.list'],
    ['GET', /^\/v1\/services\/([^/]+)\/skus$/, 'catalog.listSkus'],
    ['GET', /^\/v1\/projects\/([^/]+)\/billingInfo$/, 'billing.getProjectBillingInfo'],
  ];
  for (const [m, pattern, api] of table) {
    const match = method === m ? pattern.exec(path) : null;
    if (match) return { api, params: match.slice(1).map(decodeURIComponent) };
  }
  return undefined;
}

function deniedMessage(api: GoogleApi, params: string[]): string {
  if (api.startsWith('bigquery'))
    return `Access Denied: Project ${params[0]}: User does not have bigquery.jobs.create permission in project ${params[0]}.`;
  if (api === 'budgets.list') return `The caller does not have permission (billing.budgets.list on billingAccounts/${params[0]}).`;
  return 'The caller does not have permission';
}

function pageOf(items: readonly unknown[], query: URLSearchParams, max: number, key: string): Record<string, unknown> {
  const size = Math.min(max, Number(query.get('pageSize') ?? max) || max);
  const offset = query.get('pageToken') ? Number(query.get('pageToken')) : 0;
  const next = offset + size < items.length ? String(offset + size) : '';
  return { [key]: items.slice(offset, offset + size), nextPageToken: next };
}

export function sendJson(res: ServerResponse, body: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(JSON.stringify(body));
}

export function sendError(res: ServerResponse, code: number, status: string, message: string, reason = status.toLowerCase()): void {
  res.writeHead(code, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(JSON.stringify({ error: { code, message, status, errors: [{ message, domain: 'global', reason }] } }));
}
