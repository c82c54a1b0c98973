import type { TokenCredential } from '@azure/identity';
import { oneLine, retryAfter } from './teams-errors.js';

/** Microsoft Graph's base, without the version. Sovereign clouds have their own; tests point it at a fake. */
export const PUBLIC_GRAPH_URL = 'https://graph.microsoft.com';

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

/**
 * Reads Microsoft Graph with plain HTTPS as the bot's app: its credential asks Entra for Graph's
 * `/.default` scope, so Graph grants exactly the application permissions an admin consented to.
 * The credential keeps and renews the token in memory; it never reaches a log or an error message.
 */
export class GraphClient {
  constructor(
    private readonly credential: TokenCredential,
    private readonly graphUrl: string = PUBLIC_GRAPH_URL,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  /** GET a path under /v1.0 (or a full @odata.nextLink), as JSON. */
  async get<T>(pathOrUrl: string): Promise<T> {
    const url = pathOrUrl.startsWith('http') ? pathOrUrl : `${trimSlash(this.graphUrl)}/v1.0${pathOrUrl}`;
    this.checkSameOrigin(url);
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(url, { headers: { authorization: `Bearer ${await this.accessToken()}`, accept: 'application/json' } });
      if (res.ok) return (await res.json()) as T;
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
    let token: { token: string } | null;
    try {
      token = await this.credential.getToken(`${new URL(this.graphUrl).origin}/.default`);
    } catch (error) {
      throw tokenError(error);
    }
    if (!token) throw new GraphError(0, 'token_failed', 'Entra gave the bot no Graph token');
    return token.token;
  }

  /** The bearer token goes to Graph's host only, never to where a tampered nextLink points. */
  private checkSameOrigin(url: string): void {
    if (new URL(url).origin !== new URL(this.graphUrl).origin)
      throw new GraphError(0, 'foreign_link', `Graph returned a link to another host (${new URL(url).host}); not followed`);
  }
}

/**
 * What the credential threw, as a GraphError: Entra's error code (invalid_client,
 * unauthorized_client) says what is wrong; its description may echo the request, so it stays out.
 * A credential that cannot run here (no managed identity on this host) says so in its own words.
 */
function tokenError(error: unknown): GraphError {
  const e = error as { name?: unknown; statusCode?: unknown; errorResponse?: { error?: unknown }; message?: unknown };
  if (e.name === 'AuthenticationError') {
    const status = typeof e.statusCode === 'number' ? e.statusCode : 0;
    const code = typeof e.errorResponse?.error === 'string' ? e.errorResponse.error : 'token_failed';
    return new GraphError(status, code, `Entra refused a Graph token for the bot (HTTP ${status} ${code})`);
  }
  const message = typeof e.message === 'string' ? e.message : String(error);
  return new GraphError(0, typeof e.name === 'string' ? e.name : 'token_failed', `no Graph token for the bot: ${oneLine(message)}`);
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
