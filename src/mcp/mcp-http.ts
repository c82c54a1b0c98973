import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Deps } from '../deps.js';
import { json, type Route } from '../http/server.js';
import { BodyError, readBody } from '../http/read-body.js';
import { CALLS_PER_MINUTE, CallBudget } from './call-budget.js';
import { connectAudited, createMcpServer } from './mcp-server.js';
import { bearerTokens, NO_TOKEN, type BearerTokens } from './bearer-tokens.js';
import type { McpTokens } from './mcp-tokens.js';
import { metadataPath, type McpOAuthSettings } from './oauth/oauth-settings.js';

/** A JSON-RPC request of a tool call is small; anything larger is not one. */
const MAX_BODY_BYTES = 256 * 1024;

/**
 * `/mcp` as serve serves it: the tokens of BURNRATE_MCP_TOKENS, those issued, and with OAuth
 * configured its access tokens (the JWT library loaded only then) and the resource's metadata.
 */
export async function mcpEndpoint(deps: Deps, fromEnv: McpTokens | null, oauth: McpOAuthSettings | null): Promise<Map<string, Route>> {
  const access = oauth ? (await import('./oauth/access-tokens.js')).accessTokens(oauth, deps.clock) : null;
  return mcpRoutes(deps, bearerTokens(deps, fromEnv, access), { oauth });
}

/**
 * `/mcp` on serve's HTTP server, Streamable HTTP without sessions: each POST carries its bearer
 * token, is answered by a server acting as that token's user, and leaves nothing behind. No token,
 * an unknown, revoked or expired one gets 401 before the body is read; a token past its requests a
 * minute, 429. GET (a server-sent stream) and DELETE (a session's end) have nothing to serve here:
 * 405, as the transport's specification allows.
 */
export function mcpRoutes(
  deps: Deps,
  tokens: BearerTokens,
  options: { perMinute?: number; oauth?: McpOAuthSettings | null } = {},
): Map<string, Route> {
  const budget = new CallBudget(options.perMinute ?? CALLS_PER_MINUTE, () => deps.clock().getTime());
  const oauth = options.oauth ?? null;
  // With OAuth, a refusal says where the resource's metadata is, so that a client can sign its user in (RFC 9728).
  const challenge = oauth
    ? `Bearer realm="burnrate", resource_metadata="${new URL(metadataPath(oauth.resource), oauth.resource).href}"`
    : 'Bearer realm="burnrate"';
  const post: Route = async (req, res) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    const bearer = match ? await tokens.check(match[1]!) : null;
    if (!bearer?.ok) {
      res.setHeader('www-authenticate', challenge);
      return json(res, 401, { error: bearer?.why ?? NO_TOKEN });
    }
    const { user } = bearer;
    const allowed = budget.take(bearer.rateKey);
    if (!allowed.ok) {
      res.setHeader('retry-after', String(allowed.retryAfterSeconds));
      return json(res, 429, {
        error: `more than ${options.perMinute ?? CALLS_PER_MINUTE} requests a minute for this token: wait and retry`,
      });
    }
    let body: unknown;
    try {
      body = JSON.parse((await readBody(req, MAX_BODY_BYTES)).toString('utf8'));
    } catch (error) {
      return json(res, error instanceof BodyError ? error.status : 400, {
        error: error instanceof BodyError ? error.message : 'the body is not JSON',
      });
    }
    const server = createMcpServer(deps, user);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void Promise.all([transport.close(), server.close()]).catch(() => {}));
    await connectAudited(deps, user, server, transport);
    await transport.handleRequest(req, res, body);
  };
  const notHere: Route = (_req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('allow', 'POST');
    json(res, 405, { error: 'POST JSON-RPC requests to /mcp; this server keeps no sessions or streams' });
  };
  const routes = new Map<string, Route>([
    ['POST /mcp', post],
    ['GET /mcp', notHere],
    ['DELETE /mcp', notHere],
  ]);
  if (oauth) {
    const metadata: Route = (_req, res) => json(res, 200, protectedResourceMetadata(oauth));
    // The path-inserted URL the 401s name, and the root one clients without a 401 try (RFC 9728, section 3).
    routes.set(`GET ${metadataPath(oauth.resource)}`, metadata);
    routes.set('GET /.well-known/oauth-protected-resource', metadata);
  }
  return routes;
}

/** What an OAuth client reads to find where to sign its user in for /mcp (RFC 9728). */
function protectedResourceMetadata(oauth: McpOAuthSettings) {
  return {
    resource: oauth.resource,
    authorization_servers: [oauth.issuer],
    bearer_methods_supported: ['header'],
    resource_name: 'burnrate',
  };
}
