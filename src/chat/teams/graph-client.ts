import { oneLine, retryAfter } from './teams-errors.js';

/**
 * Where Microsoft Graph and the Entra token service live. Public Azure unless given: sovereign
 * clouds have their own hosts, and tests point both at a local fake.
 */
export interface GraphEndpoints {
  /** Graph's base, without the version: https://graph.microsoft.com */
  graphUrl: string;
  /** The Entra authority host: https://login.microsoftonline.com */
  loginUrl: string;
}

export const PUBLIC_GRAPH: GraphEndpoints = { graphUrl: 'https://graph.microsoft.com', loginUrl: 'https://login.microsoftonline.com' };

/** The bot's own app registration, signing in by itself (client credentials, no user). */
export interface GraphCredentials {
  clientId: string;
  clientSecret: string;
  tenantId: string;
}

/** Graph answered with an error; `code` is the OData error code (Authorization_RequestDenied, ...). */
export class GraphError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'GraphError';
  }
}

/** Throttled requests wait at most this long for Graph's Retry-After before giving up until the next refresh. */
const MAX_RETRY_WAIT_MS = 30_000;
const ATTEMPTS = 3;
/** A token is renewed this long before it expires, so no request goes out with one about to lapse. */
const TOKEN_MARGIN_MS = 5 * 60_000;

/**
 * Reads Microsoft Graph with plain HTTPS as the bot's app (client credentials for the tenant's
 * `/.default` scope, so Graph grants exactly the application permissions an admin consented to).
 * The token stays in memory only and never reaches a log or an error message.
 */
export class GraphClient {
  private token: { value: string; until: number } | null = null;

  constructor(
    private readonly credentials: GraphCredentials,
    private readonly endpoints: GraphEndpoints = PUBLIC_GRAPH,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  /** GET a path under /v1.0 (or a full @odata.nextLink), as JSON. */
  async get<T>(pathOrUrl: string): Promise<T> {
    const url = pathOrUrl.startsWith('http') ? pathOrUrl : `${trimSlash(this.endpoints.graphUrl)}/v1.0${pathOrUrl}`;
    this.checkSameOrigin(url);
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(url, { headers: { authorization: `Bearer ${await this.accessToken()}`, accept: 'application/json' } });
      if (res.ok) return (await res.json()) as T;
      if (res.status === 401) this.token = null;
      // One second when Graph says nothing.
      const wait = retryAfter(res.headers.get('retry-after') ?? undefined) ?? 1000;
      const error = await graphError(res);
      if (res.status !== 429 || attempt >= ATTEMPTS || wait > MAX_RETRY_WAIT_MS) throw error;
      await this.sleep(wait);
    }
  }

  /** Every item of a collection, following @odata.nextLink page after page. */
  async all<T>(path: string, maxPages = 200): Promise<T[]> {
    const items: T[] = [];
    let next: string | undefined = path;
    for (let page = 0; next && page < maxPages; page++) {
      const body: { value?: T[]; '@odata.nextLink'?: string } = await this.get(next);
      items.push(...(body.value ?? []));
      next = body['@odata.nextLink'];
    }
    return items;
  }

  private async accessToken(): Promise<string> {
    if (this.token && this.token.until > Date.now()) return this.token.value;
    const { clientId, clientSecret, tenantId } = this.credentials;
    const res = await fetch(`${trimSlash(this.endpoints.loginUrl)}/${encodeURIComponent(tenantId)}/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: clientSecret,
        scope: `${new URL(this.endpoints.graphUrl).origin}/.default`,
      }),
    });
    const body = (await res.json().catch(() => ({}))) as { access_token?: string; expires_in?: number; error?: string };
    if (!res.ok || !body.access_token) {
      // Entra's error codes (invalid_client, unauthorized_client) say what is wrong; its description may echo the request, so it stays out.
      throw new GraphError(
        res.status,
        body.error ?? 'token_failed',
        `Entra refused a Graph token for the bot (HTTP ${res.status} ${body.error ?? ''})`.trim(),
      );
    }
    this.token = { value: body.access_token, until: Date.now() + (body.expires_in ?? 3600) * 1000 - TOKEN_MARGIN_MS };
    return body.access_token;
  }

  /** The bearer token goes to Graph's host only, never to where a tampered nextLink points. */
  private checkSameOrigin(url: string): void {
    if (new URL(url).origin !== new URL(this.endpoints.graphUrl).origin)
      throw new GraphError(0, 'foreign_link', `Graph returned a link to another host (${new URL(url).host}); not followed`);
  }
}

async function graphError(res: Response): Promise<GraphError> {
  const body = (await res.json().catch(() => ({}))) as { error?: { code?: string; message?: string } };
  const code = body.error?.code ?? `HTTP${res.status}`;
  return new GraphError(
    res.status,
    code,
    `Graph: HTTP ${res.status} ${code}${body.error?.message ? `: ${oneLine(body.error.message)}` : ''}`,
  );
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
