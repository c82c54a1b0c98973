import { BurnrateError } from '../../domain/errors.js';
import type { QueryWindow } from './dcgm-queries.js';
import { parseQueryRangeAnswer, type MatrixSink } from './matrix-parser.js';
import { staticBearerToken, type PrometheusAuth } from './prometheus-auth.js';

export type FetchFn = typeof globalThis.fetch;

export interface PrometheusHttpOptions {
  url: string;
  /** Sent as `Authorization: Bearer …`; kept in a private field and never put in an error or log. */
  bearerToken?: string | undefined;
  /** Any other way to authorise a request (a token file, SigV4); wins over bearerToken. */
  auth?: PrometheusAuth | undefined;
  fetch?: FetchFn | undefined;
  timeoutMs?: number | undefined;
}

/** GET /api/v1/query_range against one Prometheus (or a compatible API: Thanos, Mimir, VictoriaMetrics). */
export class PrometheusHttpClient {
  /** The URL as it may appear in messages (the constructor refuses credentials and drops the query string). */
  readonly displayUrl: string;
  readonly #base: URL;
  readonly #auth: PrometheusAuth | undefined;
  readonly #fetch: FetchFn;
  readonly #timeoutMs: number;

  constructor(options: PrometheusHttpOptions) {
    this.#base = parseBaseUrl(options.url);
    this.displayUrl = redactUrl(this.#base);
    this.#auth = options.auth ?? (options.bearerToken ? staticBearerToken(options.bearerToken) : undefined);
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#timeoutMs = options.timeoutMs ?? 60_000;
  }

  /** Runs one range query and streams its series into `sink`. */
  async queryRange(query: string, window: QueryWindow, sink: MatrixSink): Promise<void> {
    const url = new URL('api/v1/query_range', this.#base);
    url.search = new URLSearchParams({ query, start: String(window.start), end: String(window.end), step: String(window.step) }).toString();
    const headers: Record<string, string> = { accept: 'application/json', ...(await this.#auth?.headers(url)) };

    let response: Response;
    let body: Uint8Array;
    try {
      response = await this.#fetch(url, { headers, signal: AbortSignal.timeout(this.#timeoutMs) });
      body = new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      throw this.unreachable(error);
    }
    if (response.status === 401 || response.status === 403) throw this.refused(response.status);

    let answer;
    try {
      // Only a 2xx answer's series count; an error status still carries Prometheus' own explanation.
      answer = parseQueryRangeAnswer(body, response.ok ? sink : ignoreSeries);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      throw this.httpError(response.status, response.ok ? error.message : undefined);
    }
    if (answer.status === 'error') {
      throw new BurnrateError(
        'burnrate_prometheus_query_failed',
        `Prometheus at ${this.displayUrl} rejected a query (HTTP ${response.status}): ${answer.errorType}: ${answer.error}`,
        queryHint(answer.errorType),
        1,
      );
    }
    if (!response.ok) throw this.httpError(response.status);
  }

  private httpError(status: number, detail?: string): BurnrateError {
    return new BurnrateError(
      'burnrate_prometheus_http_error',
      `Prometheus at ${this.displayUrl} answered HTTP ${status} with something that is not a Prometheus API answer${detail ? ` (${detail})` : ''}.`,
      'Check that the url points at Prometheus itself (the part before /api/v1) and that any proxy in front of it is up.',
      1,
    );
  }

  private refused(status: number): BurnrateError {
    const hint =
      this.#auth?.refusedHint ??
      'This Prometheus wants credentials: give the source a bearer token (bearerTokenEnv or bearerTokenFile), sigv4 or google, or point it at an endpoint that needs none.';
    return new BurnrateError(
      'burnrate_prometheus_unauthorized',
      `Prometheus at ${this.displayUrl} refused the request (HTTP ${status}).`,
      hint,
      1,
    );
  }

  private unreachable(error: unknown): BurnrateError {
    const reason = describeNetworkError(error, this.#timeoutMs);
    return new BurnrateError(
      'burnrate_prometheus_unreachable',
      `Prometheus at ${this.displayUrl} is unreachable (${reason}).`,
      /CERT|UNABLE_TO_VERIFY|SELF_SIGNED/.test(reason)
        ? "Prometheus' certificate is not signed by a CA this machine trusts: give the source its CA (ca or caFile), or check the url's host name."
        : 'Check the url in the source config, that Prometheus is running, and that this machine can reach it (DNS, firewall, proxy).',
      1,
    );
  }
}

function parseBaseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BurnrateError(
      'burnrate_prometheus_url_invalid',
      'The Prometheus url is not a valid URL.',
      'Give the base URL, e.g. http://prometheus.monitoring:9090.',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BurnrateError(
      'burnrate_prometheus_url_invalid',
      `The Prometheus url must be http or https, not ${url.protocol}`,
      'Give the base URL, e.g. http://prometheus.monitoring:9090.',
    );
  }
  if (url.username || url.password) {
    throw new BurnrateError(
      'burnrate_prometheus_url_invalid',
      'The Prometheus url must not carry credentials.',
      'Remove user:password@ from the url; give the source a bearer token from the environment instead.',
    );
  }
  url.search = '';
  url.hash = '';
  // The API lives below the base path (e.g. https://host/prometheus/api/v1/...), so keep it a directory.
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

function redactUrl(url: URL): string {
  return url.href.replace(/\/$/, '');
}

const ignoreSeries: MatrixSink = () => {};

function describeNetworkError(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return `no answer within ${timeoutMs / 1000}s`;
  const cause = error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause && typeof cause.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

function queryHint(errorType: string): string {
  switch (errorType) {
    case 'timeout':
    case 'canceled':
      return 'Prometheus gave up on the query: check a shorter range, or raise --query.timeout on the server.';
    case 'execution':
      return 'Prometheus could not run the query, often because it would load too many samples (--query.max-samples): check a shorter range or a longer step.';
    case 'bad_data':
      return 'The query or its range was rejected as invalid: check the step and range, and that the url points at a Prometheus-compatible API.';
    default:
      return 'Check the Prometheus server logs for the error above.';
  }
}
