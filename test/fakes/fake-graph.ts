import { constants, createHash, randomUUID, verify, X509Certificate } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EntraOptions } from '../../src/chat/teams/bot-credential.js';
import { closeServer, readBody } from './http-body.js';
import { plainHttpTransport } from '../support/plain-http-transport.js';

export interface FakeGraphUser {
  id: string;
  displayName: string;
  mail?: string | null;
  userPrincipalName: string;
}

export interface FakeGraphGroup {
  id: string;
  displayName: string;
  mailNickname: string;
  /** Direct members: user ids, and ids of nested groups (whose users are transitive members). */
  members: string[];
}

type Failure = { status: 429; retryAfter: number } | { status: 401 | 403 | 500 | 503 };

/** One Graph request as the fake saw it; the bearer token itself is never recorded. */
export interface GraphRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
}

/**
 * Microsoft Graph v1.0 (the few group reads burnrate makes) and the Entra token endpoint on
 * 127.0.0.1, answering in their JSON shapes: collections as `value` arrays paged by `@odata.nextLink`
 * (`pageSize` items a page, so tests cross pages), OData error bodies (`{ error: { code, message,
 * innerError } }`) for 404, 401, 403 and 429 with Retry-After. Entra's side is what @azure/identity
 * (MSAL) asks: the tenant's OpenID configuration, then the token endpoint, which issues a token
 * only for the app's id and secret with the client-credentials grant and a `/.default` scope.
 */
export class FakeGraph {
  readonly users: FakeGraphUser[] = [];
  readonly groups: FakeGraphGroup[] = [];
  readonly requests: GraphRequest[] = [];
  readonly tokenRequests: { tenant: string; clientId: string; scope: string; ok: boolean }[] = [];
  /** Certificates uploaded to the app registration (PEM): a client assertion signed by one of their keys signs the app in. */
  readonly certificates: string[] = [];
  /** Tokens of identity providers the app trusts (federated credentials, workload identity), taken as client assertions. */
  readonly federatedTokens = new Set<string>();
  /**
   * The managed identities of the host, by client id, as App Service's identity endpoint serves
   * them (IDENTITY_ENDPOINT, with IDENTITY_HEADER as the shared secret): `managedIdentityEnv()`.
   */
  readonly managedIdentities = new Set<string>();
  readonly identityHeader = randomUUID();
  readonly managedIdentityRequests: { clientId: string; resource: string; ok: boolean }[] = [];
  /** Members per page of transitiveMembers. */
  pageSize = 2;
  /** Without GroupMember.Read.All (or Group.Read.All) consented, every group read is refused. */
  consented = true;
  private readonly failures: Failure[] = [];
  private readonly tokens = new Set<string>();

  private constructor(
    private readonly server: Server,
    readonly origin: string,
    readonly app: { clientId: string; clientSecret: string; tenantId: string },
  ) {}

  static async start(
    app = { clientId: randomUUID(), clientSecret: 'graph-test-secret-not-real', tenantId: randomUUID() },
  ): Promise<FakeGraph> {
    let fake: FakeGraph | undefined;
    const server = createServer((req, res) => void fake?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    fake = new FakeGraph(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, app);
    return fake;
  }

  /** The next `times` Graph reads (not token requests) fail this way. */
  failNext(failure: Failure, times = 1): void {
    for (let i = 0; i < times; i++) this.failures.push(failure);
  }

  /** Fails if a queued failure was never played. */
  assertDone(): void {
    if (this.failures.length > 0) throw new Error(`${this.failures.length} queued Graph failure(s) never happened`);
  }

  async close(): Promise<void> {
    await closeServer(this.server);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
    const raw = await readBody(req);
    const url = new URL(req.url ?? '/', this.origin);
    if (url.pathname === '/msi/token' && req.method === 'GET') return this.managedIdentityToken(req, url.searchParams, res);
    const openid = /^\/([^/]+)\/v2\.0\/\.well-known\/openid-configuration$/.exec(url.pathname);
    if (openid && req.method === 'GET') return this.openIdConfiguration(decodeURIComponent(openid[1]!), res);
    const token = /^\/([^/]+)\/oauth2\/v2\.0\/token$/.exec(url.pathname);
    if (token && req.method === 'POST') return this.issueToken(decodeURIComponent(token[1]!), new URLSearchParams(raw), res);

    const query = Object.fromEntries(url.searchParams);
    const record = (status: number) => this.requests.push({ method: req.method ?? 'GET', path: url.pathname, query, status });
    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer || !this.tokens.has(bearer)) {
      record(401);
      return odataError(res, 401, 'InvalidAuthenticationToken', bearer ? 'Access token validation failure.' : 'Access token is empty.');
    }
    const failure = this.failures.shift();
    if (failure) {
      record(failure.status);
      if (failure.status === 429)
        return odataError(res, 429, 'TooManyRequests', 'Too many requests.', { 'retry-after': String(failure.retryAfter) });
      if (failure.status === 403)
        return odataError(res, 403, 'Authorization_RequestDenied', 'Insufficient privileges to complete the operation.');
      if (failure.status === 401)
        return odataError(res, 401, 'InvalidAuthenticationToken', 'Access token has expired or is not yet valid.');
      return odataError(res, failure.status, 'serviceNotAvailable', 'The service is temporarily unavailable.');
    }
    if (!this.consented) {
      record(403);
      return odataError(res, 403, 'Authorization_RequestDenied', 'Insufficient privileges to complete the operation.');
    }
    const status = this.route(req.method ?? 'GET', url, res);
    record(status);
  }

  private route(method: string, url: URL, res: ServerResponse): number {
    const path = url.pathname;
    if (method !== 'GET') return odataError(res, 405, 'Request_BadRequest', 'Method not allowed.');
    if (path === '/v1.0/groups') {
      const filter = /^mailNickname eq '((?:[^']|'')*)'$/.exec(url.searchParams.get('$filter') ?? '');
      if (!filter) return odataError(res, 400, 'Request_UnsupportedQuery', 'Unsupported query.');
      const nickname = filter[1]!.replace(/''/g, "'");
      const value = this.groups.filter((g) => g.mailNickname.toLowerCase() === nickname.toLowerCase()).map(groupJson);
      return json(res, 200, { '@odata.context': `${this.origin}/v1.0/$metadata#groups(id,displayName,mailNickname)`, value });
    }
    const one = /^\/v1\.0\/groups\/([^/]+)$/.exec(path);
    if (one) {
      const group = this.groups.find((g) => g.id === decodeURIComponent(one[1]!));
      if (!group) return notFound(res, decodeURIComponent(one[1]!));
      return json(res, 200, {
        '@odata.context': `${this.origin}/v1.0/$metadata#groups(id,displayName,mailNickname)/$entity`,
        ...groupJson(group),
      });
    }
    const members = /^\/v1\.0\/groups\/([^/]+)\/transitiveMembers\/microsoft\.graph\.user$/.exec(path);
    if (members) {
      const group = this.groups.find((g) => g.id === decodeURIComponent(members[1]!));
      if (!group) return notFound(res, decodeURIComponent(members[1]!));
      const all = this.transitiveUsers(group);
      const start = Number(url.searchParams.get('$skiptoken') ?? 0);
      const value = all.slice(start, start + this.pageSize);
      const next = new URL(url);
      next.searchParams.set('$skiptoken', String(start + this.pageSize));
      return json(res, 200, {
        '@odata.context': `${this.origin}/v1.0/$metadata#users(id,displayName,mail,userPrincipalName)`,
        value,
        ...(start + this.pageSize < all.length ? { '@odata.nextLink': next.toString() } : {}),
      });
    }
    return odataError(res, 400, 'BadRequest', `Resource not found for the segment '${path.split('/').pop()}'.`);
  }

  private transitiveUsers(group: FakeGraphGroup, seen = new Set<string>()): FakeGraphUser[] {
    seen.add(group.id);
    const out: FakeGraphUser[] = [];
    for (const id of group.members) {
      const user = this.users.find((u) => u.id === id);
      if (user && !out.includes(user)) out.push(user);
      const nested = this.groups.find((g) => g.id === id);
      if (nested && !seen.has(nested.id)) for (const u of this.transitiveUsers(nested, seen)) if (!out.includes(u)) out.push(u);
    }
    return out.map((u) => ({ id: u.id, displayName: u.displayName, mail: u.mail ?? null, userPrincipalName: u.userPrincipalName }));
  }

  /**
   * How @azure/identity reaches this fake's Entra side: MSAL insists on an https authority, so the
   * credential is told https://127.0.0.1:port and the test's transport carries its requests over
   * plain http to this server; instance discovery is off (Entra does not list this host).
   */
  entraOptions(): EntraOptions {
    return { authorityHost: this.authorityHost, disableInstanceDiscovery: true, httpClient: plainHttpTransport };
  }

  private get authorityHost(): string {
    return this.origin.replace(/^http:/, 'https:');
  }

  /** The environment App Service gives a process with managed identities, pointing at this fake. */
  managedIdentityEnv(): Record<string, string> {
    return { IDENTITY_ENDPOINT: `${this.origin}/msi/token`, IDENTITY_HEADER: this.identityHeader };
  }

  /**
   * A token for a managed identity of the host: for Graph (usable here) or for Entra's token
   * exchange (`api://AzureADTokenExchange`, which an app trusting that identity takes as its
   * assertion: a federated credential).
   */
  private managedIdentityToken(req: IncomingMessage, query: URLSearchParams, res: ServerResponse): void {
    const clientId = query.get('client_id') ?? '';
    const resource = query.get('resource') ?? '';
    const ok =
      req.headers['x-identity-header'] === this.identityHeader &&
      query.get('api-version') === '2019-08-01' &&
      this.managedIdentities.has(clientId);
    this.managedIdentityRequests.push({ clientId, resource, ok });
    if (!ok)
      return void json(res, 400, { statusCode: 400, message: 'No managed identity found for specified ClientId/ResourceId/PrincipalId.' });
    const token = randomUUID();
    if (resource === 'api://AzureADTokenExchange') this.federatedTokens.add(token);
    else this.tokens.add(token);
    json(res, 200, {
      access_token: token,
      expires_on: String(Math.floor(Date.now() / 1000) + 3600),
      resource,
      token_type: 'Bearer',
      client_id: clientId,
    });
  }

  /** The tenant's OpenID configuration, with the fields MSAL reads; a tenant other than the app's is unknown, as in Entra. */
  private openIdConfiguration(tenant: string, res: ServerResponse): void {
    if (tenant !== this.app.tenantId)
      return void json(res, 400, { error: 'invalid_tenant', error_description: `AADSTS90002: Tenant '${tenant}' not found.` });
    const base = `${this.authorityHost}/${tenant}`;
    json(res, 200, {
      issuer: `${base}/v2.0`,
      authorization_endpoint: `${base}/oauth2/v2.0/authorize`,
      token_endpoint: `${base}/oauth2/v2.0/token`,
      jwks_uri: `${base}/discovery/v2.0/keys`,
      end_session_endpoint: `${base}/oauth2/v2.0/logout`,
      response_types_supported: ['code', 'id_token', 'token'],
      token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
    });
  }

  private issueToken(tenant: string, form: URLSearchParams, res: ServerResponse): void {
    const clientId = form.get('client_id') ?? '';
    const scope = form.get('scope') ?? '';
    const ok =
      tenant === this.app.tenantId &&
      form.get('grant_type') === 'client_credentials' &&
      clientId === this.app.clientId &&
      this.proves(tenant, form) &&
      scope.endsWith('/.default');
    this.tokenRequests.push({ tenant, clientId, scope, ok });
    if (!ok)
      return void json(res, 401, {
        error: 'invalid_client',
        error_description: 'AADSTS7000215: Invalid client secret provided.',
        error_codes: [7000215],
      });
    const token = randomUUID();
    this.tokens.add(token);
    json(res, 200, { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: token });
  }

  /**
   * The app proves who it is as Entra accepts: its secret, or a client assertion (a JWT) that is a
   * trusted federated token or is signed by an uploaded certificate's key, names the app as issuer
   * and subject and this token endpoint as audience, and has not expired.
   */
  private proves(tenant: string, form: URLSearchParams): boolean {
    if (form.has('client_secret')) return form.get('client_secret') === this.app.clientSecret;
    const assertion = form.get('client_assertion') ?? '';
    if (form.get('client_assertion_type') !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer') return false;
    if (this.federatedTokens.has(assertion)) return true;
    const [head, body, signature] = assertion.split('.');
    if (!head || !body || !signature) return false;
    const header = JSON.parse(Buffer.from(head, 'base64url').toString()) as Record<string, string>;
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    const audience = `${this.authorityHost}/${tenant}/oauth2/v2.0/token`;
    if (claims.iss !== this.app.clientId || claims.sub !== this.app.clientId || claims.aud !== audience) return false;
    if (typeof claims.exp !== 'number' || claims.exp * 1000 < Date.now()) return false;
    return this.certificates.some((pem) => {
      const cert = new X509Certificate(pem);
      // The header names the certificate by its thumbprint: SHA-256 (x5t#S256) or SHA-1 (x5t).
      const sha256 = createHash('sha256').update(cert.raw).digest('base64url');
      const sha1 = createHash('sha1').update(cert.raw).digest('base64url');
      if (header['x5t#S256'] !== sha256 && header.x5t !== sha1) return false;
      const pss = header.alg === 'PS256';
      if (!pss && header.alg !== 'RS256') return false;
      return verify(
        'sha256',
        Buffer.from(`${head}.${body}`),
        { key: cert.publicKey, ...(pss ? { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST } : {}) },
        Buffer.from(signature, 'base64url'),
      );
    });
  }
}

function groupJson(g: FakeGraphGroup) {
  return { id: g.id, displayName: g.displayName, mailNickname: g.mailNickname };
}

function notFound(res: ServerResponse, id: string): number {
  return odataError(
    res,
    404,
    'Request_ResourceNotFound',
    `Resource '${id}' does not exist or one of its queried reference-property objects are not present.`,
  );
}

function odataError(res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}): number {
  return json(
    res,
    status,
    {
      error: {
        code,
        message,
        innerError: { date: new Date().toISOString(), 'request-id': randomUUID(), 'client-request-id': randomUUID() },
      },
    },
    headers,
  );
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): number {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
  return status;
}
