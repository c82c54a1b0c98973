import type { Request } from '@microsoft/agents-hosting';

/** A channel token the bot refuses: the route answers 401 and runs nothing. */
export class ChannelTokenError extends Error {
  override readonly name = 'ChannelTokenError';
}

/**
 * The SDK verifies a channel token's signature, issuer, audience and, when the token has one, its
 * expiry; jsonwebtoken accepts a token without `exp` as valid forever. A Bot Framework token always
 * carries one, so a signed token without it (a leaked signing key's mint, or a token made for
 * another purpose) is refused.
 */
export function assertTokenExpires(authHeader: string): void {
  const payload = /^Bearer\s+(\S+)$/i.exec(authHeader.trim())?.[1]?.split('.')[1];
  let exp: unknown;
  try {
    exp = (JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as { exp?: unknown } | null)?.exp;
  } catch {
    exp = undefined;
  }
  if (typeof exp !== 'number' || !Number.isFinite(exp)) throw new ChannelTokenError('token has no expiry (exp)');
}

/**
 * The connector signs each token for the service URL it posts from (`serviceurl`); an activity
 * naming another one would make the bot send its own token, and the answer, where the sender
 * chose. The SDK only compares hosts, and only warns unless told otherwise; this compares the URL.
 */
export function assertServiceUrlClaim(identity: Request['user'], serviceUrl: unknown): void {
  const claim = identity?.serviceurl;
  if (typeof claim !== 'string' || typeof serviceUrl !== 'string' || trimSlash(claim) !== trimSlash(serviceUrl))
    throw new ChannelTokenError('the token was not issued for this service URL');
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '').toLowerCase();
}
