import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One token request as the fake saw it. */
export interface MetadataTokenRequest {
  /** The `scopes` query parameter, split on commas. */
  scopes: string[];
}

/**
 * The Compute Engine / GKE metadata server on 127.0.0.1, as google-auth-library reaches it when
 * GCE_METADATA_HOST points here: every request must carry `Metadata-Flavor: Google` (the real
 * server refuses others with 403) and every answer carries it back; the default service account's
 * token endpoint issues an access token per request (`tokens` lists them). Other metadata
 * paths answer 404, as the real server does for keys it lacks.
 */
export class FakeGceMetadata {
  readonly tokenRequests: MetadataTokenRequest[] = [];
  readonly tokens: string[] = [];
  private failing = false;

  private constructor(
    private readonly server: Server,
    /** host:port, the form GCE_METADATA_HOST takes. */
    readonly host: string,
    private readonly token: string | undefined,
  ) {}

  /** `token`: the access token issued every time (a test's resource server wants it); default a fresh one per request. */
  static async start(options: { token?: string } = {}): Promise<FakeGceMetadata> {
    let fake: FakeGceMetadata | undefined;
    const server = createServer((req, res) => fake?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    fake = new FakeGceMetadata(server, `127.0.0.1:${port}`, options.token);
    return fake;
  }

  /** Token requests answer 500 from now on (as the metadata server does when it cannot mint one), until `false`. */
  failTokens(failing = true): void {
    this.failing = failing;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', `http://${this.host}`);
    if (req.headers['metadata-flavor'] !== 'Google') return send(res, 403, 'text/html', 'Missing Metadata-Flavor:Google header.');
    if (req.method !== 'GET') return send(res, 405, 'text/plain', 'Method not allowed');
    if (url.pathname === '/computeMetadata/v1/instance' || url.pathname === '/computeMetadata/v1/instance/')
      return send(res, 200, 'application/text', 'attributes/\nhostname\nid\nservice-accounts/\nzone\n');
    if (url.pathname === '/computeMetadata/v1/instance/service-accounts/default/token') {
      this.tokenRequests.push({ scopes: (url.searchParams.get('scopes') ?? '').split(',').filter(Boolean) });
      if (this.failing) return send(res, 500, 'text/plain', 'Internal error while minting the token');
      const token = this.token ?? `ya29.metadata-${randomUUID()}`;
      this.tokens.push(token);
      return send(res, 200, 'application/json', JSON.stringify({ access_token: token, expires_in: 3599, token_type: 'Bearer' }));
    }
    send(res, 404, 'text/html', 'Not Found');
  }
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'content-type': contentType, 'metadata-flavor': 'Google' });
  res.end(body);
}
