import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { AccessTokenCheck } from '../bearer-tokens.js';
import type { McpOAuthSettings } from './oauth-settings.js';

/** Clocks differ a little: a token is taken as valid up to a minute either side of its times. */
const CLOCK_TOLERANCE_SECONDS = 60;
const USER_ID = /^[A-Za-z0-9._@:-]{1,128}$/;
/** Asymmetric signatures only: a shared-secret (HS*) token could be forged by anyone holding the secret. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/**
 * Validates OAuth access tokens issued by the configured authorization server: signed by one of
 * its keys (its JWKS, found through its metadata, fetched and cached by jose), issued by it, for
 * burnrate's resource (audience), unexpired; the user is the configured claim.
 */
export function accessTokens(settings: McpOAuthSettings, now: () => Date): (token: string) => Promise<AccessTokenCheck> {
  let keys: Promise<JWTVerifyGetKey> | null = null;
  const keySet = () => {
    keys ??= discoverJwks(settings.issuer).then((url) => createRemoteJWKSet(url));
    // A failed discovery is tried again on the next request, not remembered.
    keys.catch(() => (keys = null));
    return keys;
  };
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, await keySet(), {
        issuer: settings.issuer,
        audience: settings.resource,
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        currentDate: now(),
        requiredClaims: ['exp'],
      });
      const user = payload[settings.userClaim];
      if (typeof user !== 'string' || !USER_ID.test(user))
        return { ok: false, why: `the access token's ${settings.userClaim} claim is not a chat user id` };
      return { ok: true, user };
    } catch (error) {
      return { ok: false, why: reasonOf(error) };
    }
  };
}

/** What a client is told of a refused token: the kind of fault, never the token or the server's keys. */
function reasonOf(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'the access token has expired';
  if (error instanceof errors.JWTClaimValidationFailed) return `the access token's ${error.claim} claim is not for this server`;
  if (error instanceof errors.JOSEError) return 'the access token is not signed by the configured authorization server';
  return 'the authorization server could not be reached to check the access token';
}

/** The issuer's JWKS URL, from its OAuth metadata (RFC 8414), else its OpenID configuration. */
async function discoverJwks(issuer: string): Promise<URL> {
  const base = issuer.replace(/\/$/, '');
  for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
    const response = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(10_000) }).catch(() => null);
    if (!response?.ok) continue;
    const metadata = (await response.json()) as { issuer?: string; jwks_uri?: string };
    if (metadata.issuer === issuer && typeof metadata.jwks_uri === 'string') return new URL(metadata.jwks_uri);
  }
  throw new Error(`no authorization server metadata with a jwks_uri at ${issuer}`);
}
