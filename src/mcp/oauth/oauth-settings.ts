import { BurnrateError } from '../../domain/errors.js';
import { isLoopback } from '../../http/loopback.js';

/** OAuth 2.1 for /mcp: which issuer's access tokens burnrate accepts, for which resource, naming the user by which claim. */
export interface McpOAuthSettings {
  /** The authorization server (its `issuer`): its metadata says where its signing keys are. */
  issuer: string;
  /** burnrate's /mcp as clients reach it: the audience a token must be issued for (RFC 8707). */
  resource: string;
  /** The claim that holds the chat user id the token acts as (`sub` by default). */
  userClaim: string;
}

const HINT =
  'Set BURNRATE_MCP_OAUTH_ISSUER to your authorization server (https://login.example.com/...), BURNRATE_MCP_RESOURCE to the URL clients reach /mcp at (https://burnrate.example.com/mcp), and optionally BURNRATE_MCP_OAUTH_USER_CLAIM to the claim that holds the chat user id (sub by default).';

/**
 * Reads the OAuth settings; null when BURNRATE_MCP_OAUTH_ISSUER is unset (tokens only). Both URLs
 * must be https, or http on loopback (a test's or a laptop's server); refused at start otherwise.
 */
export function readMcpOAuth(env: NodeJS.ProcessEnv): McpOAuthSettings | null {
  const issuer = env.BURNRATE_MCP_OAUTH_ISSUER?.trim();
  if (!issuer) return null;
  const resource = env.BURNRATE_MCP_RESOURCE?.trim() ?? '';
  for (const [name, value] of [
    ['BURNRATE_MCP_OAUTH_ISSUER', issuer],
    ['BURNRATE_MCP_RESOURCE', resource],
  ] as const)
    if (!secureUrl(value))
      throw new BurnrateError(
        'burnrate_mcp_oauth_invalid',
        `${name} must be an https URL (http only on loopback), got "${value.slice(0, 200)}"`,
        HINT,
      );
  const userClaim = env.BURNRATE_MCP_OAUTH_USER_CLAIM?.trim() || 'sub';
  if (!/^[A-Za-z0-9_:/.-]{1,100}$/.test(userClaim))
    throw new BurnrateError(
      'burnrate_mcp_oauth_invalid',
      `BURNRATE_MCP_OAUTH_USER_CLAIM is not a claim name: "${userClaim.slice(0, 100)}"`,
      HINT,
    );
  return { issuer, resource, userClaim };
}

function secureUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname.replace(/^\[|\]$/g, '')));
  } catch {
    return false;
  }
}

/** Where the protected resource's metadata is served for `resource` (RFC 9728: the well-known path before the resource's own). */
export function metadataPath(resource: string): string {
  const path = new URL(resource).pathname.replace(/\/$/, '');
  return `/.well-known/oauth-protected-resource${path}`;
}
